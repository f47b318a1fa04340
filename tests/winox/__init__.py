"""The Wino-X wing."""
