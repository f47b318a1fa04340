"""The family registry: every family's JSON schema, the options declared once, the generic compare."""
