"""The Relative tab."""
