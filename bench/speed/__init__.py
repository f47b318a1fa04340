"""How fast, against the tools we replace."""
