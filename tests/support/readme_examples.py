"""The examples of the README and of the docs site as data: every shell command and Python block, in reading order,
with what it needs.

Reading order is README.md, then the site's pages in the order of mkdocs.yml's ``nav`` (a command moved from the
README into a page stays checked, and a page can use a file an earlier page wrote). Pages that are links to files
kept elsewhere (docs/validity.md → VALIDITY.md, the DiP wing's README) are not read: they are reference, not steps.
Shared by tests/house/test_readme_examples.py (each command still parses and names suites and options that exist) and
bench/release/readme_examples.py (each one runs, as written, in a fresh clone). A line marked ``# online`` needs a
network; ``# your files`` names data a user brings, ``# your model`` a model (or a model server) of theirs. The sections
that set discotest up (the two commands, Install) are run by CI and bench/release/package_smoke.sh instead.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETUP_SECTIONS = ("The two commands", "Install")  # run by .ci/run and bench/release/package_smoke.sh
SETUP_PAGES = ("docs/install.md",)  # the same, on the site
SHELL_WORDS = {"discotest", "head", "cat", "cp", "cut", "awk", "sed", "printf", "mkdir", "echo"}


@dataclass(frozen=True)
class Example:
    line: int  # 1-based line of its file where it starts
    section: str
    kind: str  # "shell" or "python"
    text: str  # the command (a heredoc with its body) or the whole Python block
    online: bool = False  # needs a network
    user_files: bool = False  # names files a user brings
    user_model: bool = False  # needs a model (or model server) a user brings: an LLM is too big to ship
    path: str = "README.md"  # its file, relative to the checkout

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def runnable(self) -> bool:
        return not (self.online or self.user_files or self.user_model)


def _markers(text: str) -> tuple[bool, bool, bool]:
    return "# online" in text, "# your files" in text, "# your model" in text


def pages(root: Path = ROOT) -> list[Path]:
    """README.md, then the docs site's own pages in the order of mkdocs.yml's nav (links to files kept elsewhere
    left out)."""
    nav = (root / "mkdocs.yml").read_text("utf-8").split("\nnav:", 1)[1]
    docs = [root / "docs" / name for name in re.findall(r"([\w./-]+\.md)\s*$", nav, re.M)]
    return [root / "README.md", *(page for page in docs if not page.is_symlink())]


def examples(root: Path = ROOT) -> list[Example]:
    """Every example of the README and the docs pages outside the setup sections, in reading order."""
    return [example for page in pages(root) for example in page_examples(page, page.relative_to(root).as_posix())]


def page_examples(page: Path, path: str = "README.md") -> list[Example]:
    """Every example of one Markdown file outside the setup sections, in order."""
    if path in SETUP_PAGES:
        return []
    lines = page.read_text("utf-8").splitlines()
    out: list[Example] = []
    section, k = "", 0
    while k < len(lines):
        line = lines[k]
        heading = re.match(r"#{1,2} (.*)", line)
        if heading:
            section = heading.group(1).strip()
        if not line.startswith("```"):
            k += 1
            continue
        language, start = line[3:].strip(), k + 1
        end = next(j for j in range(start, len(lines)) if lines[j].startswith("```"))
        k = end + 1
        if section in SETUP_SECTIONS:
            continue
        body = lines[start:end]
        if language == "python":
            out.append(Example(start + 1, section, "python", "\n".join(body), *_markers("\n".join(body)), path))
            continue
        if language:
            continue
        j = 0
        while j < len(body):
            text = body[j].removeprefix("$ ").strip()
            first = text.split(" ", 1)[0] if text else ""
            if first.endswith("/discotest"):
                first = "discotest"
            if first not in SHELL_WORDS:
                j += 1
                continue
            begin, command = j, [text]
            heredoc = re.search(r"<<'?(\w+)'?", text)
            if heredoc:
                while j + 1 < len(body) and body[j + 1].strip() != heredoc.group(1):
                    j += 1
                    command.append(body[j])
                j += 1
                command.append(body[j] if j < len(body) else "")
            joined = "\n".join(command)
            out.append(Example(start + 1 + begin, section, "shell", joined, *_markers(joined), path))
            j += 1
    return out


def discotest_argv(command: str) -> list[str] | None:
    """The arguments after ``discotest`` of a shell command (up to a redirection or pipe), or None if it runs no
    discotest."""
    first_line = command.splitlines()[0]
    words = shlex.split(first_line, comments=True)
    for i, word in enumerate(words):
        if word == "discotest" or word.endswith("/discotest"):
            argv = []
            for w in words[i + 1:]:
                if w in {">", "<", "|", "&&", ";"} or w.startswith((">", "<")):
                    break
                argv.append(w)
            return argv
    return None


def shown_outputs(page: Path = README) -> list[tuple[int, list[str], list[str]]]:
    """(line, commands, shown) for each block of commands that a ```text block follows: what the page says those
    commands print (the first lines of their stdout)."""
    lines = page.read_text("utf-8").splitlines()
    fences = [k for k, line in enumerate(lines) if line.startswith("```")]
    blocks = [(fences[i], fences[i + 1]) for i in range(0, len(fences) - 1, 2)]
    out = []
    for (start, end), (next_start, next_end) in zip(blocks, blocks[1:]):
        between = [line for line in lines[end + 1:next_start] if line.strip()]
        if lines[start].strip() == "```" and lines[next_start].strip() == "```text" and not between:
            commands = [line for line in lines[start + 1:end] if line.strip()]
            out.append((start + 2, commands, lines[next_start + 1:next_end]))
    return out
