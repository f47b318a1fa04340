"""The engine: Ray gives the local engine's bytes; child processes end with their parent."""
