"""Each analyser against its hand-checked gold sample, through the noun-level verdict (``noun_gender``): agreement
must be at least 90%."""

from __future__ import annotations

import pytest

from discotest.gender.pipeline import noun_gender
from discotest.gender.winomt import GOLD_GENDERS
from discotest.lang.morph import languages, load_analyser
from tests.support.gender_gold import GOLD_DIR, gold_entity, gold_readings, load_gold

LANGUAGES = languages()

MIN_AGREEMENT = 0.90
LANGS_WITH_GOLD = [lang for lang in LANGUAGES if (GOLD_DIR / f"{lang}.tsv").is_file()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gold_sample_is_well_formed(lang, shared_data):
    rows = load_gold(lang)
    assert len(rows) >= 60, f"{lang}: gold sample needs at least 60 items"
    assert len({r.system for r in rows}) >= 2, f"{lang}: draw the sample from several systems"
    assert len({(r.system, r.index) for r in rows}) == len(rows), "duplicate items"
    for row in rows:
        assert row.gender in (*GOLD_GENDERS, "unknown"), row
        assert row.justification.strip(), row
        gold_entity(row)  # the words must be in the translation


@pytest.mark.parametrize("lang", LANGUAGES)
def test_analyser_agrees_with_gold(lang, shared_data):
    rows = load_gold(lang)
    analyser = load_analyser(lang)
    readings = gold_readings(rows, analyser)
    misses = [(r.system, r.index, r.target_entity, r.gender, noun_gender(g), g.reason)
              for r, g in zip(rows, readings) if noun_gender(g) != r.gender]
    agreement = 1 - len(misses) / len(rows)
    assert agreement >= MIN_AGREEMENT, f"{lang}: agreement {agreement:.1%}; misses: {misses}"
