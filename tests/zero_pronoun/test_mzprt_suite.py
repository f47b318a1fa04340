"""Parsing mZPRT's inline ZP tags, the file pair, the errata, and the real test sets."""

from __future__ import annotations

import pytest

from discotest.errors import InputError
from discotest.zero_pronoun.mzprt import (
    DOMAINS,
    VALID_FILES,
    apply_errata,
    check_domain,
    load_mzprt,
    parse_tagged,
    read_suite_files,
)


def test_tags_are_dropped_from_the_source_and_restored_in_the_labelled_text():
    source, labelled, zps = parse_tagged("<我>_S觉得<它的>_Pa颜色很好，谢谢<你>_O")
    assert source == "觉得颜色很好，谢谢"
    assert labelled == "我觉得它的颜色很好，谢谢你"
    assert zps == [("我", "S", 0, 1), ("它的", "Pa", 3, 5), ("你", "O", 12, 13)]
    assert [labelled[s:e] for _, _, s, e in zps] == ["我", "它的", "你"]


@pytest.mark.parametrize("form", ["S", "O", "P", "Pa", "R", "UN"])
def test_every_form_parses(form):
    pronoun = "我自己" if form == "R" else "我的" if form.startswith("P") else "我"
    assert parse_tagged(f"好<{pronoun}>_{form}。")[2] == [(pronoun, form, 1, 1 + len(pronoun))]


def test_a_bare_pronoun_tag_is_a_zp_without_form_and_other_brackets_are_text():
    source, labelled, zps = parse_tagged("《<玉台新咏>与南朝文学》<他>参与，在<Economics of Education Review>上")
    assert zps == [("他", None, 13, 14)]
    assert source == "《<玉台新咏>与南朝文学》参与，在<Economics of Education Review>上"
    assert labelled == "《<玉台新咏>与南朝文学》他参与，在<Economics of Education Review>上"


def test_no_tags_and_stray_brackets():
    assert parse_tagged("IF>10的20余篇，IF<5") == ("IF>10的20余篇，IF<5", "IF>10的20余篇，IF<5", [])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("<我们的>_Pq人民", "form must be one of"),
        ("<我们>__S要", "form must be one of"),
        ("<我们>_要", "form must be one of"),
        ("<它的_Pa耳朵", "without a closed <pronoun> tag"),
        ("他_S来了", "without a closed <pronoun> tag"),
        ("<他們>_S来了", "not a pronoun of the table"),
        ("<猫>_O", "not a pronoun of the table"),
        ("<他_S>来了", "the form goes after the bracket"),
        ("<这>_Pa书", "the table has no Pa form of 这"),
    ],
)
def test_malformed_tags_name_file_and_line(line, message):
    with pytest.raises(InputError, match=message) as err:
        parse_tagged(line, "test.zh", 7)
    assert err.value.one_line().startswith("test.zh:7: ")


def test_errata_apply_only_to_their_file_line_and_text():
    assert apply_errata("Government_Report.zh", 590, "守护<我们的>_Pq人民") == "守护<我们的>_Pa人民"
    assert apply_errata("Government_Report.zh", 591, "守护<我们的>_Pq人民") == "守护<我们的>_Pq人民"
    assert apply_errata("other.zh", 590, "守护<我们的>_Pq人民") == "守护<我们的>_Pq人民"


def _write(tmp_path, zh: str, en: str):
    (tmp_path / "t.zh").write_text(zh, encoding="utf-8")
    (tmp_path / "t.en").write_text(en, encoding="utf-8")
    return tmp_path / "t.zh", tmp_path / "t.en"


def test_file_pair_numbering_and_documents(tmp_path):
    zh, en = _write(
        tmp_path,
        "[doc]\n<你>_S好吗\n我很好\n[doc]\n<他>_S走了，<他>_UN说\n",
        "[doc]\nAre you well?\nI am fine.\n[doc]\nHe left, saying\n",
    )
    suite = read_suite_files(zh, en, "QA")
    assert [(s.index, s.line, s.doc) for s in suite.segments] == [(0, 2, 0), (1, 3, 0), (2, 5, 1)]
    assert suite.n_lines == 5
    assert [(z.segment, z.line, z.ordinal, z.form, z.scored) for z in suite.zps] == [
        (0, 2, 0, "S", True), (2, 5, 0, "S", True), (2, 5, 1, "UN", False)
    ]
    assert [s.index for s in suite.zp_segments("any")] == [0, 2]
    assert suite.segments[2].reference == "He left, saying"


def test_un_only_segments_are_not_labelled_zp_segments(tmp_path):
    zh, en = _write(tmp_path, "<它>_UN好\n<我>来\n没有\n", "a\nb\nc\n")
    suite = read_suite_files(zh, en)
    assert [s.index for s in suite.zp_segments("any")] == [0, 1]
    assert [s.index for s in suite.zp_segments("labelled")] == [1]


def test_file_pair_errors(tmp_path):
    zh, en = _write(tmp_path, "[doc]\n你好\n", "[doc]\nhello\nextra\n")
    with pytest.raises(InputError, match="line-aligned") as err:
        read_suite_files(zh, en)
    assert err.value.line == 3 and err.value.path.endswith("t.en")
    zh, en = _write(tmp_path, "[doc]\n你好\n", "hello\n[doc]\n")
    with pytest.raises(InputError, match=r"\[doc\] on one side only") as err:
        read_suite_files(zh, en)
    assert err.value.line == 1
    zh, en = _write(tmp_path, "你好\n<他>_X来\n", "a\nb\n")
    with pytest.raises(InputError, match="form must be one of") as err:
        read_suite_files(zh, en)
    assert err.value.one_line().startswith(f"{zh}:2: ")


def test_unknown_domain():
    with pytest.raises(InputError, match="unknown mZPRT domain 'XX'"):
        check_domain("XX")
    assert check_domain("MS-valid") == "MS-valid"
    with pytest.raises(InputError):
        check_domain("MS-valid", allow_valid=False)


def test_missing_data_is_a_one_line_error(tmp_path):
    with pytest.raises(InputError, match="discotest data fetch mzprt-QA-zh") as err:
        load_mzprt("QA", tmp_path)
    assert "\n" not in err.value.one_line()


# tags per domain in the snapshot (PROVENANCE.md: 732/1195/470/897/479; MS and WF count the bare <他> too)
COUNTS = {
    "QA": (1171, 732, 0, 0, 515),
    "GR": (1587, 1195, 12, 0, 897),
    "MS": (1156, 479, 21, 9, 395),
    "PP": (1473, 906, 0, 9, 726),
    "WF": (857, 493, 14, 13, 347),
    "MS-valid": (1049, 493, 15, 1, 405),
    "WF-valid": (803, 446, 5, 10, 303),
}


@pytest.mark.parametrize("domain", [*DOMAINS, *VALID_FILES])
def test_real_test_sets(shared_data, domain):
    suite = load_mzprt(domain, shared_data)
    segments, zps, un, no_form, zp_segments = COUNTS[domain]
    assert len(suite.segments) == segments
    assert len(suite.zps) == zps
    assert sum(z.form == "UN" for z in suite.zps) == un
    assert sum(z.form is None for z in suite.zps) == no_form
    assert len(suite.zp_segments("any")) == zp_segments
    for segment in suite.segments:
        assert "[doc]" not in segment.labelled and ">_" not in segment.labelled
        for zp in segment.zps:
            assert segment.labelled[zp.start : zp.end] == zp.pronoun
