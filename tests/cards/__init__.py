"""The discourse card."""
