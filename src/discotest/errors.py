"""One error type for bad user input: the CLI turns it into exit status 2 and one line."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a sixth of a bare start-up)

if TYPE_CHECKING:  # imported by every discotest process, Thot's decode children too: nothing it does not run
    from collections.abc import Iterable
    from pathlib import Path

STDIN = "-"  # the path that means standard input (and, for outputs, standard output)


LONGEST = 1000  # characters of an error line; the rest is cut


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
        text = "\\n".join(text.splitlines())
        if len(text) > LONGEST:  # a value quoted whole (a 5 MB field) would make the one line unreadable
            text = f"{text[:LONGEST]}… (the message is {len(text):,} characters; cut)"
        return text


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'winomt'?)"`` for a name close to one of ``choices`` (difflib, case-insensitive), else
    ``""``: appended to an "unknown suite/system/language" message."""
    import difflib

    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(str(name).lower(), list(by_lower), n=1, cutoff=0.6)
    return f" (did you mean {by_lower[close[0]]!r}?)" if close else ""
