"""The command line as a user meets it: conventions, one-line errors, input checks, outputs, signatures of user
files."""
