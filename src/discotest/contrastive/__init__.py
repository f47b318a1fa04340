"""The contrastive wing: a model (or a scores file, or a baseline) scores the correct and the incorrect
translations of a sentence in context (Shimazu et al. 2020; Voita et al. 2019; Bawden et al. 2018; SCAT; CTXPRO;
ContraPro; Wino-X MT).

| module | job |
|---|---|
| ``suites`` | every suite as a row of data (format, language pair); ``FORMATS``: one reader per file format |
| ``published``, ``jsonl``, ``ctxpro``, ``contrapro_context`` | the readers |
| ``build`` | ``make-contrastive``: incorrect variants by swapping a pronoun chain |
| ``scores_file``, ``ctxpro_translations`` | a user's scores file; CTXPRO translations |
| ``baselines/`` | the papers' baselines: MAJORITY and CO-OCCUR |
| ``judge`` | accuracy by antecedent distance, phenomenon and pair |
| ``run`` | scores from a file, a seq2seq/causal/CTranslate2 model, an endpoint, or a baseline |
| ``result`` | the Result; ``family`` registers every suite |

The item every suite is read into is a floor (``discotest.data.contrastive_item``): the model scorers take it too.
"""
