"""CO-OCCUR: score a candidate by the sum of inner products between its pronoun's CBOW embedding and the
embeddings of the other words around it: the target sentence and target context (``cooccur``), plus the source
sentence and source context (``cooccur-st``, embeddings trained on source and target lines together).

The inner product is taken between the context words' input (context) vectors and the pronoun's output vector,
which is what CBOW trains to be large when the words occur together; two input vectors are close when words have
similar contexts (he ~ she), which would not tell the pronouns apart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from discotest.contrastive.baselines.text import differing_words, tokens
from discotest.data.contrastive_item import ContrastiveItem

DIM, WINDOW, EPOCHS, SEED = 100, 5, 10, 1


@dataclass
class CoOccur:
    vectors: object  # gensim KeyedVectors (input vectors)
    output: object  # numpy array: CBOW output vectors (negative sampling), rows in ``vectors`` order
    with_source: bool
    epochs: int = EPOCHS

    @classmethod
    def train(cls, pairs: Sequence[tuple[str, str]], with_source: bool = False, epochs: int = EPOCHS) -> CoOccur:
        from gensim.models import Word2Vec  # heavy: only when the baseline runs

        sentences = [tokens(f"{s} {t}") if with_source else tokens(t) for s, t in pairs]
        model = Word2Vec(sentences=[s for s in sentences if s], vector_size=DIM, window=WINDOW, min_count=1,
                         sg=0, epochs=epochs, seed=SEED, workers=1)
        return cls(model.wv, model.syn1neg, with_source, epochs)

    def describe(self) -> str:
        return f"dim{DIM}-win{WINDOW}-ep{self.epochs}-seed{SEED}"

    def _score(self, pronoun: str, words: Sequence[str]) -> float:
        if pronoun not in self.vectors:
            return 0.0
        vec = self.output[self.vectors.key_to_index[pronoun]]
        return float(sum(vec @ self.vectors[w] for w in words if w in self.vectors and w != pronoun))

    def score_item(self, item: ContrastiveItem) -> list[float]:
        out = []
        for i, cand in enumerate(item.candidates):
            pronoun = differing_words(cand, [c for j, c in enumerate(item.candidates) if j != i])[0]
            words = tokens(cand) + [w for s in item.tgt_context for w in tokens(s)]
            if self.with_source:
                words += [w for s in (*item.src_context, item.src) for w in tokens(s)]
            out.append(self._score(pronoun, words))
        return out

    def score_items(self, items: Sequence[ContrastiveItem]) -> list[list[float]]:
        return [self.score_item(item) for item in items]
