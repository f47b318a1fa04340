"""The card's suite groups, read from ``groups.json``: per language pair, every suite that applies, the options its run
takes and which kinds of system can fill it. A user names pairs (``--pairs``) and may narrow them to some suites
(``--suites``); an unknown pair or suite is an error naming the known ones."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from discotest.errors import InputError, did_you_mean

if TYPE_CHECKING:
    from discotest.cards.rows import Validity

KINDS = ("published", "outputs", "model", "endpoint")


@dataclass(frozen=True)
class CardRow:
    """One suite of one pair on the card (``id`` is unique within the pair: ``mt-geneval-contextual``)."""

    pair: str
    id: str
    suite: str
    phenomenon: str
    options: dict[str, Any] = field(default_factory=dict)
    takes: tuple[str, ...] = KINDS
    validity: str = ""
    rank: bool = True  # placed among the suite's published systems (False: MT-GenEval's are references)
    file: str = "input"  # the option an --outputs file fills: "input" (translations) or "scores" (candidate scores)
    # "declared": the suite lists its published systems; "run": only its run knows, and ranks a given file among them
    published_list: str = "declared"

    @property
    def key(self) -> str:
        """``pair/id``: how the manifest of ``--outputs`` and the card's JSON name the row."""
        return f"{self.pair}/{self.id}"

    def spec(self) -> dict[str, Any]:
        """The row as data (part of its cache key)."""
        return {"pair": self.pair, "id": self.id, "suite": self.suite, "options": self.options, "file": self.file}


@cache
def _groups() -> dict[str, Any]:
    return json.loads(resources.files("discotest.cards").joinpath("groups.json").read_text("utf-8"))


def known_pairs() -> list[str]:
    return list(_groups()["pairs"])


def rows_of(pairs: list[str], suites: list[str] | None = None) -> list[CardRow]:
    """The card's rows for ``pairs``, in the groups' order; ``suites`` keeps only rows whose suite or id is named."""
    declared = _groups()["pairs"]
    out = []
    for pair in pairs:
        if pair not in declared:
            raise InputError(f"--pairs: no suite group for {pair!r}{did_you_mean(pair, list(declared))}; "
                             f"known pairs: {', '.join(declared)}")
        for row in declared[pair]:
            out.append(CardRow(pair, row["id"], row["suite"], row["phenomenon"], dict(row.get("options", {})),
                               tuple(row.get("takes", KINDS)), row.get("validity", ""), row.get("rank", True),
                               row.get("file", "input"), row.get("published_list", "declared")))
    if suites:
        named = {r.suite for r in out} | {r.id for r in out}
        unknown = [s for s in suites if s not in named]
        if unknown:
            raise InputError(f"--suites: {unknown[0]!r} is in no group of {', '.join(pairs)}"
                             f"{did_you_mean(unknown[0], sorted(named))}; these pairs have {', '.join(sorted(named))}")
        out = [r for r in out if r.suite in suites or r.id in suites]
    return out


@cache
def _validity() -> dict[str, Any]:
    return json.loads(resources.files("discotest.cards").joinpath("validity.json").read_text("utf-8"))["badges"]


def validity_badge(row: CardRow, lang: str | None) -> Validity:
    """What VALIDITY.md says of the row's number: its text, in or out of sample, the hand check behind it (rows that
    hold of those read) or its headline figure, the figure for this language when there is one, and the section it
    comes from. A row whose badge is not declared says so (tests/cards/test_card.py keeps every row declared)."""
    from discotest.cards.rows import HandCheck, Validity

    badge = _validity().get(row.validity)
    if badge is None:
        return Validity(None, "no validity figure declared")
    figure = badge.get("by_lang", {}).get(lang or "")
    check = badge.get("hand_check")
    return Validity(badge["sample"], badge["text"], f"{figure}{badge.get('unit', '')}" if figure else None,
                    HandCheck(check["holds"], check["n"]) if check else None, badge.get("headline"),
                    badge["section"])


def validity_badges() -> dict[str, Any]:
    """Every badge as declared (for the test that keeps them true to VALIDITY.md)."""
    return dict(_validity())
