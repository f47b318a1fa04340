"""Reading WMT pairs into documents on the real WMT21/WMT22 files in ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from discotest.data.readers import read_lines
from discotest.dip.documents import blocks, load_pair
from discotest.errors import InputError


def _covers_all_lines(pair) -> bool:
    return [i for d in pair.documents for i in d.lines] == list(range(pair.n_lines))


def test_wmt22_de_en(shared_data: Path) -> None:
    pair = load_pair("wmt22", "de-en", root=shared_data)
    # PROVENANCE.md: 1984 lines, 271 documents, 9 systems, references A and B
    assert pair.n_lines == 1984 and len(pair.documents) == 271 and len(pair.systems) == 9
    assert {"Online-A", "LT22", "PROMT"} <= set(pair.systems)
    assert _covers_all_lines(pair)
    assert all(len(lines) == 1984 for lines in pair.systems.values())
    assert sum(len(blocks(d)) for d in pair.documents) > 300
    ref_b = load_pair("wmt22", "de-en", ref="B", root=shared_data, systems=[])
    assert ref_b.reference != pair.reference and ref_b.systems == {}


def test_wmt22_en_de_order_differs_from_de_en(shared_data: Path) -> None:
    # pairs sharing a source keep their own document order: de-en's first document is not en-de's
    de_en = read_lines(shared_data / "wmt22_general/docids/generaltest2022.de-en.docids")
    de_fr = read_lines(shared_data / "wmt22_general/docids/generaltest2022.de-fr.docids")
    assert len(de_en) == len(de_fr) == 1984 and de_en != de_fr


def test_wmt22_zh_en_empty_line_is_a_translation(shared_data: Path) -> None:
    # Online-W has one empty line in zh-en: kept as "", not dropped (the count would no longer match)
    pair = load_pair("wmt22", "zh-en", root=shared_data, systems=["Online-W"])
    assert pair.n_lines == 1875 and pair.systems["Online-W"].count("") == 1


def test_wmt21_ru_en(shared_data: Path) -> None:
    pair = load_pair("wmt21", "ru-en", root=shared_data, max_docs=5)
    # 1000 lines, 107 documents (5 kept by max_docs), 10 systems
    assert pair.n_lines == 1000 and len(pair.documents) == 5 and len(pair.systems) == 10
    assert len(set(pair.doc_ids)) == 107


def test_wmt21_de_en_has_no_doc_ids(shared_data: Path) -> None:
    with pytest.raises(InputError, match="no document ids for wmt21 de-en"):
        load_pair("wmt21", "de-en", root=shared_data)


def test_english_target_only_and_unknown_pair(shared_data: Path) -> None:
    with pytest.raises(InputError, match="English-target only"):
        load_pair("wmt22", "en-de", root=shared_data)
    with pytest.raises(InputError, match="unknown pair fr-en for wmt22"):
        load_pair("wmt22", "fr-en", root=shared_data)
    with pytest.raises(InputError, match="no system"):
        load_pair("wmt22", "de-en", root=shared_data, systems=["NoSuchSystem"])
