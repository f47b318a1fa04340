"""The published scorers' arithmetic, reproduced on their own released verdicts (issue 24): mZPRT's aZPT script
writes a ``.details`` row per ZP and a ``.score`` file (a line per ZP tag, then "Finally Correct entities"); our
``score_azpt`` over the released verdicts gives the released totals and score to the printed digit.
(Our own verdicts differ from the released ones through alignment; that measured difference is the report's
"Ours − released" column, tests/zero_pronoun/test_mzprt_end_to_end.py.) Two released files disagree with themselves:
their ``.details`` rows do not add up to their ``.score`` (M.S rec_oracle 396/53 vs 403/46, QA unified_tgt 223/509 vs
192/540, and the first's Score is 396/449, its rows', not 403/449); the test pins that, so a new release or a
reading change is noticed."""

from __future__ import annotations

from pathlib import Path

from discotest.zero_pronoun.judge import ZPVerdict, score_azpt
from discotest.zero_pronoun.outputs import read_details, read_score

SELF_INCONSISTENT = {("M.S", "rec_oracle"): ((396, 53), (403, 46)), ("QA", "unified_tgt"): ((223, 509), (192, 540))}


def _verdict(i: int, tag: str, correct: bool) -> ZPVerdict:
    pronoun, _, form = tag.strip("<").partition(">_") if ">_" in tag else (tag.strip("<>"), "", "")
    return ZPVerdict(segment=i, line=i + 1, ordinal=0, pronoun=pronoun, form=form or None, stem=None,
                     labelled_source=[], zp_word=0, hypothesis=[], expected=[], candidates=[], span=[],
                     found_by="released", aligned=[], correct=correct)


def test_azpt_arithmetic_reproduces_every_released_score(shared_data: Path):
    files = sorted((shared_data / "mzprt/2_metric_azpt/aZPT_output").glob("*/*.details"))
    assert len(files) == 33
    odd = {}
    for details in files:
        rows = read_details(details)
        ours = score_azpt([_verdict(i, tag, v.correct) for i, (_, tag, v) in enumerate(rows)])
        released, correct, incorrect = read_score(details.with_suffix(".score"))
        key = (details.parent.name, details.stem)
        if (ours.correct, ours.n - ours.correct) != (correct, incorrect):
            odd[key] = ((ours.correct, ours.n - ours.correct), (correct, incorrect))
            continue
        assert f"{100 * correct / (correct + incorrect):.10f}" == f"{released:.10f}"  # their formula
        assert f"{ours.accuracy:.2f}" == f"{released:.2f}", key  # the printed digits of both
    assert odd == SELF_INCONSISTENT
