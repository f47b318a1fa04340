"""A model's translations are read for their language before they are scored (``models.language_watch``): another
language refuses the run in one line, a doubtful share is a warning, ``--skip-language-check`` marks the signature.

The translations are real system outputs (WinoMT's published German and French), handed back by a translator that
stands for a model which answers in them: what an LLM that ignores its target language does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from discotest.errors import InputError
from discotest.models.language_watch import watched, watching


class Answers:
    """A translator whose answers are given lines (the interface's calls, nothing else)."""

    name = "org/answers"
    backend = "fixed"
    context_prompt = False

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        self.calls = 0

    def translate(self, sources: Sequence[str], desc: str | None = None) -> list[str]:
        self.calls += 1
        return self.lines[:len(sources)]

    def translate_in_context(self, sources, contexts, desc=None) -> list[str]:
        return self.translate(sources, desc)

    def signature_fields(self) -> list[tuple[str, str]]:
        return [("model", "answers"), ("engine", self.backend)]


def _published(shared_data: Path, lang: str, n: int = 300) -> list[str]:
    path = shared_data / "mt_gender" / "translations" / "google" / f"en-{lang}.txt"
    return [line.split(" ||| ")[-1] for line in path.read_text("utf-8").splitlines()[:n]]


def test_translations_in_another_language_stop_the_run(shared_data):
    french = _published(shared_data, "fr")
    with watching() as watch:
        translator = watched(Answers(french), "de")
        with pytest.raises(InputError) as error:
            translator.translate(["x"] * len(french))
    message = str(error.value)
    assert "the output of model org/answers is mostly French" in message and "not German (de" in message
    assert "--skip-language-check" in message and "\n" not in message
    assert watch.warnings == []


def test_another_script_stops_the_run(shared_data):
    russian = _published(shared_data, "ru", 50)
    with watching(), pytest.raises(InputError, match="Cyrillic script"):
        watched(Answers(russian), "de").translate_in_context(["x"] * 50, [[]] * 50)


def test_the_right_language_passes_unchanged(shared_data):
    german = _published(shared_data, "de")
    with watching() as watch:
        assert watched(Answers(german), "de").translate(["x"] * len(german)) == german
    assert watch.warnings == [] and watch.unchecked == set()


def test_a_doubtful_share_is_a_warning_of_the_run(shared_data):
    # 60% German, 40% French: not refused (French is under half), but the scores say little
    lines = [*_published(shared_data, "de", 180), *_published(shared_data, "fr", 120)]
    with watching() as watch:
        assert watched(Answers(lines), "de").translate(["x"] * len(lines)) == lines
    warning, = watch.warnings
    assert warning.startswith("warning: the output of model org/answers: only") and "German (de" in warning


def test_skipped_check_passes_them_and_names_the_model(shared_data):
    french = _published(shared_data, "fr", 50)
    with watching(check=False) as watch:
        translator = watched(Answers(french), "de")
        assert translator.translate(["x"] * 50) == french
    assert isinstance(translator, Answers) and watch.unchecked == {"answers"}


def test_outside_a_run_it_is_said_and_the_lines_kept(shared_data, capsys):
    # ``discotest translate`` writes its file; scoring that file (``run --input``) is refused as any such file is
    french = _published(shared_data, "fr", 50)
    assert watched(Answers(french), "de").translate(["x"] * 50) == french
    err = capsys.readouterr().err
    assert err.startswith("discotest: warning: the output of model org/answers is mostly French")
    assert err.count("\n") == 1


def test_a_model_that_answers_nothing_stops_the_run_and_many_empty_answers_warn(shared_data):
    """A reasoning model whose answer never came within ``--max-length`` answers nothing: every translation empty
    stops the run; over 30% of them empty is a warning."""
    with watching(), pytest.raises(InputError, match="is empty for every one of its 5 sentences"):
        watched(Answers(["", " ", "", "", ""]), "de").translate(["x"] * 5)
    german = _published(shared_data, "de", 60)
    lines = german[:40] + [""] * 20
    with watching() as watch:
        assert watched(Answers(lines), "de").translate(["x"] * 60) == lines
    assert watch.warnings == ["warning: the output of model org/answers: 20 of its 60 translations are empty (above "
                              "30%): its scores say little"]
    with watching() as watch:  # a few empty answers (an empty source, a dropped line) say nothing
        watched(Answers(german[:57] + ["", "", ""]), "de").translate(["x"] * 60)
    assert watch.warnings == []


class CutAnswers(Answers):
    """A served model's translator as the watch sees it: the answers it stopped at ``--max-length`` are in ``cut``."""

    max_length = 48

    def __init__(self, lines: Sequence[str], cut: Sequence[str]) -> None:
        super().__init__(lines)
        self.cut = set(cut)


def test_translations_cut_by_max_length_are_counted_whatever_the_language_check(shared_data):
    german = _published(shared_data, "de", 40)
    with watching() as watch:
        assert watched(CutAnswers(german, german[:3]), "de").translate(["x"] * 40) == german
    assert watch.warnings == ["warning: the output of model org/answers: 3 of its 40 translations stopped at "
                              "--max-length (48 tokens) before they ended and are scored as cut: raise --max-length"]
    with watching(check=False) as skipped:
        watched(CutAnswers(german, german[:1]), "de").translate(["x"] * 40)
    assert len(skipped.warnings) == 1 and "1 of its 40" in skipped.warnings[0]
    with watching() as none_cut:
        watched(CutAnswers(german, []), "de").translate(["x"] * 40)
    assert none_cut.warnings == []


def test_a_served_answer_is_cut_when_it_stops_at_max_tokens_inside_its_first_line():
    from discotest.models.endpoint import cut_by_length

    def answer(content: str, reason: str) -> dict:
        return {"choices": [{"message": {"content": content}, "finish_reason": reason}]}

    assert cut_by_length(answer("Der Arzt fragte die Kranken", "length"))
    assert cut_by_length(answer("\n  Der Arzt fragte die Kranken", "length"))
    assert not cut_by_length(answer("Der Arzt fragte.\nEnglish: The doctor", "length"))  # the first line is whole
    assert not cut_by_length(answer("Der Arzt fragte.", "stop"))
    assert cut_by_length(answer("Der Arzt fragte.\nDie", "length"), sentence=False)
