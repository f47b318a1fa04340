"""Agreement with people and hand-checked gold."""
