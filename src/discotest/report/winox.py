"""The Wino-X pronoun-accuracy result and its text table."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from discotest.phenomena.winox_pronoun import VERDICTS, PronounVerdict
from discotest.report.result import Signature
from discotest.suites.winox import WinoxItem


@dataclass
class WinoxResult:
    lang: str
    system: str
    signature: Signature
    items: list[WinoxItem] = field(repr=False)
    translations: dict[int, str] = field(repr=False)
    verdicts: dict[int, PronounVerdict] = field(repr=False)
    unmatched: list[int] = field(default_factory=list)

    @property
    def counts(self) -> Counter:
        return Counter(v.verdict for v in self.verdicts.values())

    @property
    def accuracy(self) -> float:
        """Percent of the judged items whose translation uses the gold pronoun (the paper's measure)."""
        return 100.0 * self.counts["correct"] / len(self.verdicts) if self.verdicts else 0.0

    @property
    def decided_accuracy(self) -> float:
        """The same among items whose translation chose one of the two pronouns."""
        decided = self.counts["correct"] + self.counts["wrong"]
        return 100.0 * self.counts["correct"] / decided if decided else 0.0

    def to_json(self) -> dict:
        return {"suite": "winox", "lang": self.lang, "system": self.system, "n": len(self.verdicts),
                "accuracy": round(self.accuracy, 2), "decided_accuracy": round(self.decided_accuracy, 2),
                "counts": {v: self.counts[v] for v in VERDICTS}, "unmatched_rows": self.unmatched,
                "signature": self.signature.format()}

    def details(self) -> list[dict]:
        out = []
        for item in self.items:
            if item.index not in self.verdicts:
                continue
            v = self.verdicts[item.index]
            out.append({"index": item.index, "qID": item.qid, "source": item.sentence,
                        "translation": self.translations[item.index], "gold_pronoun": item.gold_pronoun,
                        "wrong_pronoun": item.wrong_pronoun, "referent": item.gold_referent, "verdict": v.verdict,
                        "counts": list(v.counts), "expected_gold": list(v.expected_gold),
                        "expected_wrong": list(v.expected_wrong)})
        return out


def render_winox_table(results: list[WinoxResult]) -> str:
    head = ["lang", "system", "n", "acc", "acc(decided)", *VERDICTS]
    rows = [[r.lang, r.system, str(len(r.verdicts)), f"{r.accuracy:.1f}", f"{r.decided_accuracy:.1f}",
             *(str(r.counts[v]) for v in VERDICTS)] for r in results]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in (head, *rows)]
    return "\n".join([*lines, *(f"signature: {r.signature}" for r in results)])
