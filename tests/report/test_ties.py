"""One tie rule for every ranking (issue 50, item 3): ``run``'s DiP tables, ``compare``'s rankings and the card's
place order systems by value, tied ones by name, and give tied systems the better rank; a system's neighbours are the
ones just before and after it in that order. Before, the card put ties below a system and chose the alphabetically
first of the tied systems above it, ``compare`` the last, and DiP numbered ties 1, 2, 3."""

from __future__ import annotations

from discotest.dip.rank import rank_phenomenon
from discotest.dip.score import PhenomenonScore
from discotest.report.ranking import Scored, place, ranking
from discotest.report.result import PairedMetric
from discotest.stats import accuracy_from_sums, tie_order


def _accuracy(correct: list[int]) -> PairedMetric:
    return PairedMetric("accuracy", {i: (float(c), 1.0) for i, c in enumerate(correct)}, accuracy_from_sums)


class _Result:
    """The least a ranking reads of a result: its suite, system and ranked metrics."""

    def __init__(self, system: str, metric: PairedMetric):
        self.suite, self.system, self._metric = "toy", system, metric

    def ranked_metrics(self) -> list[PairedMetric]:
        return [self._metric]


# 10 items: a 80%, three systems tied at 60% (b, mine, c: their items differ), d 40%
SYSTEMS = {"a": [1] * 8 + [0] * 2, "c": [0, 0] + [1] * 6 + [0] * 2, "mine": [1] * 6 + [0] * 4,
           "b": [0] * 4 + [1] * 6, "d": [1] * 4 + [0] * 6}


def test_tied_systems_share_the_better_rank_in_name_order():
    assert tie_order([0.0, -3.0, -1.0, -1.0], ["z", "y", "x", "w"]) == [(1, 1), (3, 2), (2, 2), (0, 4)]


def test_the_card_and_compare_give_the_same_rank_and_neighbours_on_ties():
    table = ranking([_Result(name, _accuracy(c)) for name, c in SYSTEMS.items()])[0]["systems"]
    assert [(s["rank"], s["system"]) for s in table] == [(1, "a"), (2, "b"), (2, "c"), (2, "mine"), (5, "d")]
    others = [Scored(name, _accuracy(c)) for name, c in SYSTEMS.items() if name != "mine"]
    placed = place(Scored("mine", _accuracy(SYSTEMS["mine"])), others)
    at = [s["system"] for s in table].index("mine")
    assert (placed["rank"], placed["of"]) == (table[at]["rank"], len(table)) == (2, 5)
    assert placed["above"]["system"] == table[at - 1]["system"] == "c"
    assert placed["below"]["system"] == table[at + 1]["system"] == "d"
    assert placed["above"]["p"] == table[at - 1]["p_next"]  # the same paired test, the same items
    assert placed["above"]["value"] == placed["below"]["value"] + 20 == 60.0


def test_a_copy_of_a_system_shares_its_rank_in_run_dip():
    """A user's file equal to a WMT system's (a copy of Online-B) ties with it: both 1st, the next system 3rd."""
    stats = {"Online-B": [[3, 4]] * 5, "copy": [[3, 4]] * 5, "Online-A": [[1, 4]] * 5}
    scores = [PhenomenonScore("lexical", name, [{}] * 5, s) for name, s in stats.items()]
    ranked = rank_phenomenon("lexical", scores, {})
    assert [(row.rank, row.system) for row in ranked.rows] == [(1, "Online-B"), (1, "copy"), (3, "Online-A")]
    assert ranked.rows[0].p_next == 1.0
