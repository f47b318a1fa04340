"""Published mZPRT outputs: marks removed, lines mapped to test sentences (verified on every domain)."""

from __future__ import annotations

import collections
import re

import pytest

from discotest.data import catalogue
from discotest.errors import InputError
from discotest.zero_pronoun.mzprt import DOMAINS, load_mzprt, read_suite_files
from discotest.zero_pronoun.outputs import (
    published_systems,
    read_details,
    read_published,
    read_score,
    segment_map,
    strip_marks,
)


def test_strip_marks():
    assert strip_marks("do <you> have a <driver> <'s> license") == "do you have a driver 's license"
    assert strip_marks("a <<,>> b <<you>> <.>") == "a , b you ."
    assert strip_marks("x <> y < z >") == "x <> y < z >"  # too short to be a mark, or not one word


def test_segment_map_layouts(tmp_path):
    (tmp_path / "t.zh").write_text("<你>_S好\n没有\n[doc]\n<它>_UN好\n<我>_S来\n", encoding="utf-8")
    (tmp_path / "t.en").write_text("a\nb\n[doc]\nc\nd\n", encoding="utf-8")
    suite = read_suite_files(tmp_path / "t.zh", tmp_path / "t.en", "MS")
    assert segment_map(4, suite, "x") == ([0, 1, 2, 3], "all-segments")
    assert segment_map(3, suite, "x") == ([0, 2, 3], "zp-segments")
    assert segment_map(2, suite, "x") == ([0, 3], "zp-segments-labelled")
    with pytest.raises(InputError, match="5 lines fit no layout") as err:
        segment_map(5, suite, "out.tagged")
    assert err.value.path == "out.tagged"


def test_read_score_and_details(tmp_path):
    score = tmp_path / "s.score"
    score.write_text("SRC_ZP:<你>_S\tRef_ZP:you\tCorrect:1\tIncorrect:1\tAcc:0.5\n"
                     "Finally Correct entities:211\t Incorrect:521\t Score:0.28825136612021857\n")
    assert read_score(score) == (pytest.approx(28.825136612021857), 211, 521)
    score.write_text("nothing here\n")
    with pytest.raises(InputError, match="no 'Finally"):
        read_score(score)
    details = tmp_path / "d.details"
    details.write_text(
        "Sent\tSRC_ZP_Pos.\tSRC_ZP\tRef_ZP\tTGT_ZPT_Pos.\tTGT_ZPT\tCase\n"
        "0\t4\t<你>_S\tyou\t5\tyou\t1\n"
        "1\t10\t<你>_S_n\tNone\t[9]\t[',', 'cut']\t-1\n"
    )
    rows = read_details(details)
    assert [(line, tag, v.correct, v.reference_word) for line, tag, v in rows] == [
        (0, "<你>_S", True, "you"), (1, "<你>_S", False, None)
    ]
    details.write_text("Sent\tx\n0\t4\t<你>_S\n")
    with pytest.raises(InputError, match="7 tab-separated") as err:
        read_details(details)
    assert err.value.line == 2


def test_every_published_output_is_registered():
    counts = {d: len(published_systems(d)) for d in DOMAINS}
    assert counts == {"QA": 8, "GR": 5, "MS": 12, "PP": 5, "WF": 3}
    for source in catalogue.SOURCES.values():
        if source.suite == "mzprt":
            assert source.url.startswith("https://raw.githubusercontent.com/longyuewangdcu/mZPRT/5d62d62a80bec7f")


def _words(text):
    return re.findall(r"\w+", text.lower())


def _overlap(a, b):
    ca, cb = collections.Counter(a), collections.Counter(b)
    return 2 * sum((ca & cb).values()) / (len(a) + len(b)) if a and b else 0.0


LAYOUT = {"QA": "zp-segments", "GR": "zp-segments", "MS": "zp-segments-labelled", "PP": "zp-segments",
          "WF": "zp-segments"}


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_mapping_on_the_real_outputs(shared_data, domain):
    """Two independent checks per system: the released per-ZP rows name the ZPs of the sentence we map
    their line to, and each hypothesis is closer to its own reference than to the neighbouring ones."""
    suite = load_mzprt(domain, shared_data)
    for system in published_systems(domain):
        out = read_published(domain, system, suite, shared_data)
        assert out.layout == ("all-segments" if (domain, system) == ("QA", "deep_tgt") else LAYOUT[domain])
        segments = sorted(out.hypotheses)
        rows = read_details(catalogue.locate(f"mzprt-{domain}-{system}-details", shared_data))
        tags = collections.defaultdict(list)
        for line, tag, _ in rows:
            tags[line].append(tag)
        # .details "Sent" counts lines of the .tagged file; for the full-length file that is the segment
        agree = sum(
            [z.tag for z in suite.segments[seg].zps if z.scored] == tags.get(k, [])
            for k, seg in enumerate(segments)
            if suite.segments[seg].zps
        )
        zp_lines = sum(bool(suite.segments[seg].zps) for seg in segments)
        assert agree / zp_lines > 0.95, (system, agree, zp_lines)
        closer = 0
        for seg in segments:
            hyp = _words(out.hypotheses[seg])
            own = _overlap(hyp, _words(suite.segments[seg].reference))
            near = [_overlap(hyp, _words(suite.segments[j].reference)) for j in (seg - 1, seg + 1)
                    if 0 <= j < len(suite.segments)]
            closer += own >= max(near)
        assert closer / len(segments) > 0.9, (system, closer, len(segments))
        # the released score is the .score file's final line, and most released rows found their ZP
        assert 0 < out.released < 100
        assert len(out.released_verdicts) / len(rows) > 0.95


def test_a_shifted_mapping_would_fail_the_check(shared_data):
    """The check above has teeth: MS mapped with the other rule (all tagged sentences) falls apart."""
    suite = load_mzprt("MS", shared_data)
    out = read_published("MS", "deep_oracle", suite, shared_data)
    wrong = [s.index for s in suite.zp_segments("any")][: len(out.hypotheses)]
    lines = [out.hypotheses[s] for s in sorted(out.hypotheses)]
    shifted = sum(_overlap(_words(h), _words(suite.segments[seg].reference)) for h, seg in zip(lines, wrong))
    right = sum(_overlap(_words(out.hypotheses[seg]), _words(suite.segments[seg].reference)) for seg in out.hypotheses)
    assert right / len(lines) > 0.5 and shifted / len(lines) < 0.3, (right / len(lines), shifted / len(lines))


def test_unknown_system_and_domain(shared_data):
    suite = load_mzprt("QA", shared_data)
    with pytest.raises(InputError, match="no published mZPRT output 'nope' for QA"):
        read_published("QA", "nope", suite, shared_data)
    with pytest.raises(InputError, match="test domains only"):
        read_published("MS-valid", "base_tgt", suite, shared_data)
