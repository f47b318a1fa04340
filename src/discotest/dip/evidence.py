"""The text behind one scored DiP item, for a person reading the report: the reference and system sentences of the
item (context, block or document) with the words that decided the verdict located in them.

Kept apart from scoring so ``--details`` stays what the paper's statistics read; the HTML report calls this to show
the mined sentence pairs. Spans are character offsets into the joined text fields, found from the parses (so the
reference's connective or pronoun is the token the item names, not a first string match).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from discotest.dip import anaphora, lexical
from discotest.dip.mine import Parses
from discotest.dip.parse import Sentence, Token

LINE_BREAK = " ⏎ "  # joins the lines of a block, a context or a document in one text field

@dataclass(frozen=True)
class Span:
    field: str
    start: int
    end: int
    kind: str  # "ref" the reference's word, "same" the system's word as the reference's, "diff" a different word


@dataclass(frozen=True)
class ItemText:
    fields: dict[str, str]
    spans: tuple[Span, ...] = ()


@dataclass
class _Joined:
    """Lines joined by LINE_BREAK, remembering where each line starts."""

    name: str
    text: str = ""
    starts: list[int] = field(default_factory=list)

    def add(self, line: str) -> None:
        if self.starts:
            self.text += LINE_BREAK
        self.starts.append(len(self.text))
        self.text += line

    def token_span(self, k: int, tokens: Sequence[Token], kind: str) -> Span:
        """The span of consecutive ``tokens`` of the k-th added line."""
        return Span(self.name, self.starts[k] + tokens[0].idx, self.starts[k] + tokens[-1].idx + len(tokens[-1].text),
                    kind)


def _joined(name: str, lines: Sequence[str]) -> _Joined:
    out = _Joined(name)
    for line in lines:
        out.add(line)
    return out


def _word_span(joined: _Joined, k: int, sentence: Sentence, word: str | None, near: int, kind: str) -> list[Span]:
    """The k-th line's token sequence spelling ``word`` (case-insensitive), the one nearest token ``near``."""
    if not word:
        return []
    words = word.lower().split()
    hits = [i for i in range(len(sentence) - len(words) + 1)
            if [t.text.lower() for t in sentence[i:i + len(words)]] == words]
    if not hits:
        return []
    i = min(hits, key=lambda h: (abs(h - near), h))
    return [joined.token_span(k, sentence[i:i + len(words)], kind)]


def item_text(phenomenon: str, item: dict, verdict: dict, reference: Sequence[str], system: Sequence[str],
              ref: Parses, sys: Parses) -> ItemText:
    """The item's sentences with its evidence located (``ref``/``sys``: the parses of the item's lines)."""
    lines = item["sentences"]
    if phenomenon == "lexical":
        return _lexical(item, verdict, reference, system, ref, sys)
    if phenomenon == "connectives":
        line = lines[0]
        r, s = _joined("reference", [reference[line]]), _joined("output", [system[line]])
        n = len(item["connective"].split())
        spans = [r.token_span(0, ref[line][item["token"]:item["token"] + n], "ref")]
        spans += _word_span(s, 0, sys[line], verdict.get("system_connective"), item["token"],
                            "same" if verdict.get("same") else "diff")
        return ItemText({"reference": r.text, "output": s.text}, tuple(spans))
    if phenomenon == "anaphora":
        *context, line = lines
        r, s = _joined("reference", [reference[line]]), _joined("output", [system[line]])
        spans = [r.token_span(0, ref[line][item["token"]:item["token"] + 1], "ref")]
        found = anaphora.aligned_pronouns(ref[line], sys[line]).get(item["token"])
        spans += _word_span(s, 0, sys[line], found, item["token"], "diff" if verdict.get("differs") else "same")
        fields = {"context": _joined("context", [reference[i] for i in context]).text, "reference": r.text,
                  "output context": _joined("output context", [system[i] for i in context]).text, "output": s.text}
        return ItemText(fields, tuple(spans))
    return ItemText({"reference": _joined("reference", [reference[i] for i in lines]).text,
                     "output": _joined("output", [system[i] for i in lines]).text})


def _lexical(item: dict, verdict: dict, reference: Sequence[str], system: Sequence[str], ref: Parses,
             sys: Parses) -> ItemText:
    """Every occurrence of the repeated lemma in the reference block and the system block, and the system's other
    word where the miss was classified as one."""
    lines = item["sentences"]
    r = _joined("reference", [reference[i] for i in lines])
    s = _joined("output", [system[i] for i in lines])
    spans: list[Span] = []
    other = verdict.get("other_word")
    for joined, parses, kinds in ((r, ref, {item["lemma"]: "ref"}),
                                  (s, sys, {item["lemma"]: "same", **({other: "diff"} if other else {})})):
        for k, i in enumerate(lines):
            for token in parses[i]:
                kind = kinds.get(lexical.counted_lemma(token))
                if kind:
                    spans.append(joined.token_span(k, [token], kind))
    return ItemText({"reference": r.text, "output": s.text}, tuple(spans))
