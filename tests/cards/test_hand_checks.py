"""Every card badge that rests on a hand check states what its gold file gives: the rows that hold of those read,
and VALIDITY.md quotes the same figure with its Wilson interval (bench/validity/hand_check.py computes both); every
gold row says why. The card renders the figure and whether it is in or out of sample, never "not validated"."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.validity.hand_check import figure, quoted, read_rows

from discotest.cards.groups import CardRow, validity_badge, validity_badges
from discotest.cards.render import _validity
from discotest.cards.rows import Validity

REPO = Path(__file__).resolve().parents[2]
CHECKED = sorted(name for name, badge in validity_badges().items() if badge.get("hand_check"))


def _section(name: str) -> str:
    text = (REPO / "VALIDITY.md").read_text("utf-8")
    body = text.split("## " + validity_badges()[name]["section"], 1)[1].split("\n## ", 1)[0]
    return " ".join(body.split())


def test_the_card_rows_named_in_issue_51_carry_a_hand_check():
    assert {"winomt-adj", "mt-geneval", "ctxpro", "contrastive", "jazp", "bsd-zp"} <= set(CHECKED)


@pytest.mark.parametrize("name", CHECKED)
def test_a_badge_states_what_its_gold_gives_and_validity_md_quotes_it(name):
    check = validity_badges()[name]["hand_check"]
    rows = read_rows(check["gold"], check.get("where"))
    holds, n, _, _ = figure(rows)
    assert (check["holds"], check["n"]) == (holds, n)
    assert n >= 44 and len({r["id"] for r in rows}) == n  # jazp: 44 items; the others (BSD's last round too): 100+
    assert quoted(rows) in _section(name)


def test_a_badge_renders_its_figure_and_sample():
    badge = validity_badge(CardRow("en-fr", "scat", "scat", "anaphora", validity="contrastive"), "fr")
    holds, n, low, high = figure(read_rows(validity_badges()["contrastive"]["hand_check"]["gold"]))
    assert _validity(badge) == f"hand check {holds}/{n}, {100 * holds / n:.1f}% [{low:.1f}–{high:.1f}], out of sample"
    assert _validity(Validity("in", "", figure="94.7%")) == "94.7% gold, in sample"
    assert _validity(Validity("in", "", headline="F1 97.0 on the authors' marks")) == \
        "F1 97.0 on the authors' marks, in sample"
    for name in validity_badges():
        text = _validity(validity_badge(CardRow("x-y", name, name, "", validity=name), "de"))
        assert "not validated" not in text and text.endswith(("in sample", "out of sample")), (name, text)
