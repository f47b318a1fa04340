"""The gender wing: coreference and gender agreement in translations (WinoMT, BUG, winomt-adj; MT-GenEval in
``mt_geneval/``), Stanovsky et al. 2019 and Yehudai et al. 2023.

| module | job |
|---|---|
| ``winomt``, ``bug``, ``winomt_adj``, ``suites`` | read the suites (``suites.load_gender_suite`` by name) |
| ``mentions`` | the pronoun and the distracting entity of an item, in its English source |
| ``published`` | the published system outputs the registry knows |
| ``pipeline`` | one translation set: tokenise, align, locate the entity, read its gender |
| ``judge`` | the verdicts (noun, consistency, reader) and the scores: accuracy, ΔG, ΔS |
| ``run`` | end to end per (system, language): alignment models, analysers, verdict cache, parallel languages |
| ``verdict_cache`` | whole verdict lists cached by content |
| ``result`` | the Result (tables, charts, items for the HTML page) |
| ``family`` | options and registration (``discotest run winomt …``) |
| ``translate`` | a suite translated by a model (``run --model``, ``discotest translate``) |
| ``coref/`` | English resolvers vs MT-derived clusters (``discotest coref``), coreference markers |
| ``augment``, ``finetune`` | coreference-marked fine-tuning data and a Marian fine-tune |
| ``validate`` | samples for people and their agreement with the verdicts |

Per-language morphology is a floor: ``discotest.lang.morph``; alignment: ``discotest.lang.align``.
"""
