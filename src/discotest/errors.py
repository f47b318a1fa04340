"""One error type for bad user input: the CLI turns it into exit status 2 and one line."""

from __future__ import annotations

from pathlib import Path

STDIN = "-"  # the path that means standard input (and, for outputs, standard output)


class InputError(Exception):
    """Bad input the user can fix: a missing file, a malformed row, an unknown name.

    ``where`` names the file (and line, 1-based, when known) so the one-line message says
    exactly where to look.
    """

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.path = None if path is None else "<stdin>" if str(path) == STDIN else str(path)
        self.line = line
        self.detail = message
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The message on one line, whatever text from the input it quotes (line breaks are shown escaped)."""
        if self.path is None:
            text = self.detail
        else:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
            text = f"{where}: {self.detail}"
        return "\\n".join(text.splitlines())
