"""Are a model's translations in the language it was asked for? A decoder-only LLM asked for German may answer in
English, repeat its source, or explain itself; a broken or random model emits another script. Scored silently, such
output reads as wrong genders and dropped pronouns, not as what it is.

So the translations every translator of the door returns (``translate``, ``translate_in_context``) are read as an
``--input`` file is (``lang.identify``: the script of the letters, then py3langid over a sample of lines):

- mostly another language or script, or nothing (every translation empty): the run stops with one line naming the
  model and both languages (the backends cache their translations first, so nothing computed is lost;
  ``--skip-language-check`` scores them anyway and the results' signatures then say ``langcheck:off``);
- many lines not in the language, or empty: a warning in the report (stderr, JSON, HTML, a card's row);
- translations the backend knows it stopped at ``--max-length`` before they ended (``cut``: a served model's
  ``finish_reason: length`` inside the answer's first line): counted in a warning, checked language or not.

A run opens a ``watching`` scope (``registry.run_settings``) that says whether to check and collects what was seen.
Without one (``discotest translate``, which writes the translations for a later ``run --input``) both are warnings on
stderr: the file is written, and scoring it is refused as any such file is. """

from __future__ import annotations

import contextvars
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from discotest.errors import InputError


@dataclass
class Watch:
    """One run's scope: ``check`` (False with ``--skip-language-check``), the warnings it met, and the models whose
    translations it passed unchecked, as their signatures name them (those results' signatures say
    ``langcheck:off``)."""

    check: bool = True
    warnings: list[str] = field(default_factory=list)
    unchecked: set[str] = field(default_factory=set)


_scope: contextvars.ContextVar[Watch | None] = contextvars.ContextVar("discotest_language_watch", default=None)


@contextmanager
def watching(check: bool = True) -> Iterator[Watch]:
    """The scope of one run: translators opened inside it report to the returned ``Watch``."""
    watch = Watch(check)
    token = _scope.set(watch)
    try:
        yield watch
    finally:
        _scope.reset(token)


def watched(translator: Any, lang: str) -> Any:
    """``translator``, its translations checked against ``lang`` (unless the run skips the check, or the language is
    one the check cannot judge)."""
    from discotest.lang.identify import knows

    watch = _scope.get()
    check = watch is None or watch.check
    if not check:
        watch.unchecked.add(dict(translator.signature_fields()).get("model", str(translator.name)))
    if hasattr(translator, "cut"):  # it knows which answers ran into --max-length: counted whatever the check
        return _Watched(translator, lang, check and knows(lang))
    return _Watched(translator, lang) if check and knows(lang) else translator


def unwatched(translator: Any) -> Any:
    """The backend a watched translator stands for (``watched``), or ``translator`` itself: what it is, to read its
    attributes whole (``models.requests.settled``)."""
    return translator._backend if isinstance(translator, _Watched) else translator


class _Watched:
    """The translator it stands for, its translations read before they are handed on."""

    def __init__(self, backend: Any, lang: str, language: bool = True) -> None:
        self._backend = backend
        self._lang = lang
        self._language = language  # False: only the --max-length count (--skip-language-check, a language unknown)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        return self._read(self._backend.translate(sources, desc))

    def translate_in_context(self, sources: Sequence[str], contexts: Sequence[Sequence[str]],
                             desc: str | None = None) -> list[str]:
        return self._read(self._backend.translate_in_context(sources, contexts, desc))

    def _read(self, lines: list[str]) -> list[str]:
        from discotest.lang.identify import read_language

        what = f"the output of model {self._backend.name}"
        watch = _scope.get()
        _count_cut(lines, self._backend, what, watch)
        if not self._language:
            return lines
        problem, doubt = _emptiness(lines)
        hint = "is --max-length long enough for its answer, and does its prompt ask for a translation?"
        if not problem:
            reading = read_language(lines, self._lang)
            problem, doubt = reading.problem(), doubt or reading.doubt()
            hint = "is the target language right, and does the model's prompt ask for it?"
        if problem and watch is not None:  # a run: scoring them would say nothing true
            raise InputError(f"{what} {problem}: {hint} (they are cached; --skip-language-check scores them anyway)")
        if problem or doubt:  # ``translate`` writes them, and says so
            warning = f"warning: {what} {problem}" if problem else f"warning: {what}: {doubt}"
            if watch is None:
                print(f"discotest: {warning}", file=sys.stderr)
            elif warning not in watch.warnings:
                watch.warnings.append(warning)
        return lines


def _count_cut(lines: Sequence[str], backend: Any, what: str, watch: Watch | None) -> None:
    """Translations the backend says stopped at ``--max-length`` before they ended (``cut``: a served model's
    ``finish_reason: length``; a local LLM's row that ran out of ``max_new_tokens`` first) are scored as cut: a
    warning in the report and on the card's row says how many."""
    cut = sum(1 for line in lines if line in (getattr(backend, "cut", None) or ()))
    if not cut:
        return
    limit = getattr(backend, "max_length", None)
    warning = (f"warning: {what}: {cut} of its {len(lines)} translations stopped at --max-length"
               f"{f' ({limit} tokens)' if limit else ''} before they ended and are scored as cut: raise --max-length")
    if watch is None:
        print(f"discotest: {warning}", file=sys.stderr)
    elif warning not in watch.warnings:
        watch.warnings.append(warning)


def _emptiness(lines: Sequence[str]) -> tuple[str | None, str | None]:
    """A model that answers nothing (a reasoning model whose answer never came within ``--max-length``, a prompt it
    cannot follow): every translation empty is a problem, many of them a doubt (the language check's thresholds:
    ``MIN_LINES_TO_REFUSE`` lines, over ``1 - WARN_EXPECTED`` of them)."""
    from discotest.lang.identify import MIN_LINES_TO_REFUSE, WARN_EXPECTED

    empty = sum(1 for line in lines if not line.strip())
    if not empty:
        return None, None
    if empty == len(lines) and empty >= MIN_LINES_TO_REFUSE:
        return f"is empty for every one of its {empty} sentences", None
    if empty / len(lines) > 1 - WARN_EXPECTED:
        return None, (f"{empty} of its {len(lines)} translations are empty (above {1 - WARN_EXPECTED:.0%}): its "
                      "scores say little")
    return None, None
