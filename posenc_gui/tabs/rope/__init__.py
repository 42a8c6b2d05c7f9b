"""The Rope tab."""
