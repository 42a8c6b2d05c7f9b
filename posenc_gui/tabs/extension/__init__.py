"""The context-extension tab."""
