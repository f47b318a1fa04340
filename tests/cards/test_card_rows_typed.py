"""What the card hands each row, typed (issue 52): the published systems a row is ranked against come from each
family's declared list (``Family.published``), not from parsing the words of ``discotest suites``; a row's run gets
its family's checked Settings, built once (``cards.build.row_settings``), ``--limit`` and ``--max-length`` by those
names."""

from __future__ import annotations

import pytest

from discotest import families
from discotest.cards.build import row_settings
from discotest.cards.groups import rows_of
from discotest.cards.system import SystemSpec, published_names
from discotest.errors import InputError
from discotest.models.interface import DEFAULT_MAX_LENGTH


def _row(key: str):
    return next(row for row in rows_of([key.split("/")[0]]) if row.key == key)


def test_published_names_are_the_families_declared_systems_for_the_pair():
    assert published_names(_row("en-uk/winomt")) == ["google", "bing", "systran"]  # aws has no Ukrainian output
    assert published_names(_row("en-de/winomt")) == ["google", "bing", "aws", "systran", "sota"]
    assert published_names(_row("en-de/ctxpro-auxiliary-en-de-test")) == ["deepl-sentences", "deepl-contexts"]
    assert published_names(_row("ja-en/jazp")) == []
    # every domain's systems, each once, in the registry's order (mZPRT's pair is its only one)
    mzprt = published_names(_row("zh-en/mzprt"))
    assert mzprt[:3] == ["base_tgt", "deep_oracle", "deep_tgt"] and len(mzprt) == len(set(mzprt)) == 13
    # the words ``reference, reference-swapped`` name two systems (parsing them made one name of both)
    assert published_names(_row("ja-en/mittens")) == ["reference", "reference-swapped"]


def test_every_declared_name_is_one_the_suites_words_show():
    """``published`` and ``suites`` say the same: every declared name stands in the suite's line of
    ``discotest suites``."""
    for family in families.families():
        if family.published is None:
            continue
        for suite, words in family.suites().items():
            for name in family.published(suite):
                assert any(name in line for line in words), (suite, name)


def test_a_rows_run_gets_its_familys_settings_with_the_cards_limit_and_max_length():
    model = SystemSpec("model", "some/model", model_options={"max_length": 64, "beam": 2, "context": [0]})
    settings = row_settings(model, _row("en-de/winomt"), {"limit": 5, "quiet": True, "engine": None})
    assert (settings.model, settings.max_length, settings.beam, settings.limit) == ("some/model", 64, 2, 5)
    assert settings.owner == families.family_of("winomt").title
    # a contrastive row scores candidates: no decoding option reaches it, its context sizes do
    scored = row_settings(model, _row("ja-en/jazp"), {"limit": 5, "quiet": True})
    assert scored.max_length == DEFAULT_MAX_LENGTH != 64
    assert scored.context == [0] and scored.limit == 5
    with pytest.raises(InputError, match="limit"):
        row_settings(model, _row("en-de/winomt"), {"limit": -1, "quiet": True})
