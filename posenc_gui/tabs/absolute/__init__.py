"""The Absolute tab."""
