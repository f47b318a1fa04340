"""Each analyser's pronoun reading against its hand-checked gold sample: agreement at least 90%."""

from __future__ import annotations

import pytest

from discotest.lang.morph import languages, load_analyser
from discotest.lang.morph.base import OMISSION_REASONS
from tests.support.pronoun_gold import GOLD_DIR, gold_pronoun_target, load_pronoun_gold

LANGUAGES = languages()

LANGS_WITH_GOLD = [lang for lang in LANGUAGES if (GOLD_DIR / f"{lang}.tsv").is_file()]


@pytest.mark.parametrize("lang", LANGS_WITH_GOLD)
def test_pronoun_gold_is_well_formed(lang, shared_data):
    rows = load_pronoun_gold(lang)
    assert len(rows) >= 60 and len({r.system for r in rows}) >= 2
    for row in rows:
        assert row.gender in ("male", "female", "neutral", "unknown"), row
        assert row.omitted in ("", *OMISSION_REASONS), row
        assert row.justification.strip(), row
        gold_pronoun_target(row)


@pytest.mark.parametrize("lang", LANGS_WITH_GOLD)
def test_pronoun_reading_agrees_with_gold(lang, shared_data):
    rows = load_pronoun_gold(lang)
    readings = load_analyser(lang).read_pronouns([gold_pronoun_target(r) for r in rows])
    misses = [
        (r.system, r.index, r.pronoun_words, r.gender, r.omitted, g.gender.value, g.omitted, g.reason)
        for r, g in zip(rows, readings)
        if (g.omitted or "") != r.omitted or (not r.omitted and g.gender.value != r.gender)
    ]
    agreement = 1 - len(misses) / len(rows)
    assert agreement >= 0.90, f"{lang}: agreement {agreement:.1%}; misses: {misses}"
