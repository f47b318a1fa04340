"""The zero-pronoun wing: AZPT on the Chinese–English mZPRT benchmark (Wang, Xu, Wong et al. 2022).

| module | job |
|---|---|
| ``mzprt`` (+ ``mzprt_errata.tsv``) | read the ZP-labelled test sets and their references |
| ``outputs``, ``hypotheses`` | published system outputs; a system's hypotheses (file, output or reference) by segment |
| ``segment_zh`` | Chinese segmentation of the ZP-labelled sources |
| ``pronouns/`` (``zh_en.tsv``) | the bilingual pronoun table keyed by ZP form (S, O, Pa, P, R) |
| ``corpus`` | the alignment corpus: background text the model is trained on once |
| ``judge`` | how a ZP is judged: aligned window, the pronoun table, the verdict and its evidence |
| ``run`` | AZPT per domain and system, and BLEU |
| ``compare`` | BLEU of two results with a paired test |
| ``result`` | the Result, and Kendall's τ against the released scores; ``family`` registers ``mzprt`` |
"""
