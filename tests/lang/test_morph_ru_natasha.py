"""The Russian analyser's way of running natasha (``ru_natasha.py``) gives natasha's own tags and arcs.

It loads the embedding without its vocabulary, sends the sentences sorted by length and keeps tag ids: none of that
may change a tag or an arc. Compared with ``NewsMorphTagger.map`` / ``NewsSyntaxParser.map`` over the real
translations of the Russian gold sample (many batches, lengths in no order) and the hand-written traps.
"""

from __future__ import annotations

import pytest

pytest.importorskip("natasha")

from natasha import NewsEmbedding, NewsMorphTagger, NewsSyntaxParser  # noqa: E402

from discotest.lang.morph.ru_natasha import Natasha  # noqa: E402
from tests.lang.morph_cases.ru import CASES  # noqa: E402
from tests.lang.test_morph_ru import item  # noqa: E402


@pytest.fixture(scope="module")
def sentences(shared_data) -> list[list[str]]:
    from tests.support.gender_gold import gold_entity, load_gold

    items = [gold_entity(row) for row in load_gold("ru")] + [item(s, w) for s, w, _ in CASES]
    out = [[t.text for t in i.tokens] for i in items]
    lengths = [len(s) for s in out]
    assert len(out) > 40 and lengths != sorted(lengths) and len(set(lengths)) > 10  # many batches, mixed lengths
    return out


def test_tags_and_arcs_are_natashas(sentences):
    ours = Natasha()
    embedding = NewsEmbedding()
    tagger, parser = NewsMorphTagger(embedding), NewsSyntaxParser(embedding)
    assert ours.tagger.infer.model.emb.word.id == embedding.meta.id  # the embedding the models were trained with

    tags = [[ours.tag(t) for t in ids] for ids in ours.tag_ids(sentences)]
    assert tags == [[(t.pos, t.feats) for t in m.tokens] for m in tagger.map(sentences)]

    arcs = ours.arcs(sentences)
    assert arcs == [[(int(t.head_id) - 1, t.rel) for t in m.tokens] for m in parser.map(sentences)]
    assert any(head == -1 for head, _ in arcs[0]) and len({rel for a in arcs for _, rel in a}) > 10

