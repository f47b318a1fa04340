"""The AZPT scorer on hand-made sentences with known alignments: aligned, unaligned, the window."""

from __future__ import annotations

import pytest

from discotest.zero_pronoun.judge import (
    Span,
    ZPVerdict,
    candidate_span,
    judge_segment,
    match_position,
    score_azpt,
    unclaimed_rendering,
)
from discotest.zero_pronoun.mzprt import ZeroPronoun
from discotest.zero_pronoun.pronouns import load_zh_en

# 0:我 1:觉得 2:它 3:很 4:好   /   0:i 1:think 2:it 3:is 4:very 5:good
SRC = ["我", "觉得", "它", "很", "好"]
HYP = ["i", "think", "it", "is", "very", "good"]
MONOTONE = {(0, 0), (1, 1), (2, 2), (3, 4), (4, 5)}


def _zp(written, form, ordinal=0):
    return ZeroPronoun(segment=0, line=1, ordinal=ordinal, pronoun=written, form=form, start=0, end=len(written))


def verdict(src, hyp, links, zp, written, form, window=1, reach=0) -> ZPVerdict:
    """The verdict on one ZP at source position ``zp``, the only ZP of its sentence."""
    return judge_segment(src, hyp, links, [(_zp(written, form), zp)], load_zh_en(), window, reach)[0]


def test_aligned_zp_with_its_window():
    v = verdict(SRC, HYP, MONOTONE, 2, "它", "S")
    assert v.found_by == "aligned" and v.aligned == [2]
    assert v.span == [1, 2, 3] and v.candidates == ["think", "it", "is"]
    assert v.correct and v.matched == "it" and v.matched_at == 2 and v.matched_by == "window"
    assert (v.expected, v.stem, v.zp_word, v.labelled_source, v.hypothesis) == (["it"], "它", 2, SRC, HYP)


def test_window_zero_is_the_aligned_word_only():
    links = MONOTONE - {(2, 2)} | {(2, 3)}  # the ZP aligned one word off
    assert verdict(SRC, HYP, links, 2, "它", "S", window=0).correct is False
    assert verdict(SRC, HYP, links, 2, "它", "S", window=1).correct is True


def test_wider_window():
    assert verdict(SRC, HYP, MONOTONE, 2, "它", "S", window=2).span == [0, 1, 2, 3, 4]


def test_several_aligned_words_each_get_a_window_not_one_long_span():
    hyp = ["i", "think", "so", "and", "and", "and", "and", "he", "is", "good"]
    v = verdict(SRC, hyp, {(2, 1), (2, 9)}, 2, "他", "S")
    assert v.span == [0, 1, 2, 8, 9]
    assert v.correct is False  # "he" at 7 lies between, not beside, the aligned words


def test_unaligned_zp_between_aligned_neighbours():
    # 0:我 1:觉得 2:它(ZP, unaligned) 3:很 4:好  ->  i think it is very good
    links = MONOTONE - {(2, 2)}
    v = verdict(SRC, HYP, links, 2, "它", "S")
    assert v.found_by == "neighbours" and candidate_span(2, links, len(SRC), len(HYP)).neighbours == (1, 3)
    assert v.span == [1, 2, 3, 4]  # from 觉得's word to 很's word, both included at window 1
    assert v.correct and v.candidates == ["think", "it", "is", "very"]
    assert verdict(SRC, HYP, links, 2, "它", "S", window=0).span == [2, 3]  # strictly between
    assert verdict(SRC, HYP, links, 2, "它", "S", window=2).span == [0, 1, 2, 3, 4, 5]


def test_unaligned_zp_whose_neighbours_cross():
    span = candidate_span(1, {(0, 4), (2, 1)}, 3, 6, 1)
    assert span.found_by == "neighbours" and span.positions == (1, 2, 3, 4)


def test_dropped_pronoun_is_wrong_even_if_a_pronoun_comes_later():
    # <我>_S 觉得 很 好 ， 他 说  ->  "think very good , he says" : the ZP was not translated
    src = ["我", "觉得", "很", "好", "，", "他", "说"]
    hyp = ["think", "very", "good", ",", "he", "says", ",", "i", "agree"]
    links = {(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5)}
    v = verdict(src, hyp, links, 0, "我", "S")
    assert v.found_by == "right-neighbour" and v.span == [0, 1]
    assert v.correct is False  # the original's span ran to the end of the sentence and found "i"


def test_zp_after_everything_aligned_is_bounded_too():
    src = ["好", "吗", "你"]
    hyp = ["good", "?", "you", "know", "you"]
    span = candidate_span(2, {(0, 0), (1, 1)}, len(src), len(hyp), 1)
    assert span.found_by == "left-neighbour" and span.positions == (0, 1, 2)


def test_subject_after_the_verb_in_a_question():
    # 它(ZP) 是 丝 -> "is it silk": the only aligned neighbour is the verb; the pronoun follows it
    v = verdict(["它", "是", "丝"], ["is", "it", "silk"], {(1, 0), (2, 2)}, 0, "它", "S")
    assert v.found_by == "right-neighbour" and v.correct
    span0 = candidate_span(0, {(1, 0), (2, 2)}, 3, 3, 0)
    assert span0.positions == ()


def test_nothing_aligned():
    v = verdict(["它", "好"], ["fine"], set(), 0, "它", "S")
    assert v.found_by == "none" and v.correct is False and v.candidates == []
    assert candidate_span(0, set(), 1, 0, 1).positions == ()  # empty hypothesis


def test_links_outside_the_hypothesis_are_ignored_and_bad_window():
    assert candidate_span(0, {(0, 9)}, 1, 2, 1).found_by == "none"
    with pytest.raises(ValueError):
        candidate_span(0, set(), 1, 1, -1)


def test_form_decides():
    src, hyp = ["看", "我的", "书"], ["look", "at", "mine"]
    links = {(0, 0), (1, 2)}
    assert verdict(src, hyp, links, 1, "我的", "Pa", window=0).correct is False
    assert verdict(src, hyp, links, 1, "我的", "P", window=0).correct is True


def test_un_and_formless_zps_are_judged_but_not_scored():
    zps = [(_zp("我", "UN", 0), 0), (_zp("它", None, 1), 2)]
    verdicts = judge_segment(SRC, HYP, MONOTONE, zps, load_zh_en())
    assert [(v.ordinal, v.correct, v.excluded, v.expected, v.matched) for v in verdicts] == [
        (0, None, "UN", [], None), (1, None, "no-form", [], None)
    ]
    assert [v.span for v in verdicts] == [[0, 1], [1, 2, 3]]  # the evidence is still there


def _v(form, correct, pronoun="我", excluded=None, found_by="aligned", matched_by=None):
    return ZPVerdict(
        segment=0, line=1, ordinal=0, pronoun=pronoun, form=form, stem=load_zh_en().stem(pronoun),
        labelled_source=[], zp_word=0, hypothesis=[], expected=[], candidates=[], span=[], found_by=found_by,
        aligned=[], correct=correct, excluded=excluded, matched_by=matched_by,
    )


def test_scores_overall_per_form_per_pronoun_and_exclusions():
    verdicts = [
        _v("S", True, matched_by="window"), _v("S", False), _v("O", True, "他", matched_by="unclaimed"),
        _v("Pa", False, "我的"), _v("UN", None, excluded="UN"), _v(None, None, excluded="no-form"),
        _v("S", True, "我们", found_by="neighbours", matched_by="window"),
    ]
    scores = score_azpt(verdicts)
    assert (scores.n, scores.correct) == (5, 3) and scores.accuracy == pytest.approx(60.0)
    assert {k: (t.n, t.correct) for k, t in scores.by_form.items()} == {"S": (3, 2), "O": (1, 1), "Pa": (1, 0)}
    assert list(scores.by_form) == ["S", "O", "Pa"]
    assert {k: (t.n, t.correct) for k, t in scores.by_pronoun.items()} == {"我": (3, 1), "他": (1, 1), "我们": (1, 1)}
    assert scores.by_tag["<我的>_Pa"].n == 1
    assert (scores.excluded_un, scores.excluded_no_form) == (1, 1)
    assert scores.found_by == {"aligned": 4, "neighbours": 1}
    assert scores.matched_by == {"window": 2, "unclaimed": 1}
    assert score_azpt([]).accuracy == 0.0
    assert scores.to_json()["by_form"]["S"] == {"n": 3, "correct": 2, "accuracy": 66.67}


# ---------------------------------------------------------------- the unclaimed-rendering rescue

# <他>_S 2007 年 入选  ->  "in 2007 , he was selected": the aligner swaps 他-in and 年-he
YEAR_SRC = ["他", "2007", "年", "入选"]
YEAR_HYP = ["in", "2007", ",", "he", "was", "selected"]
YEAR_LINKS = {(0, 0), (1, 1), (2, 3), (3, 5)}


def test_an_unclaimed_pronoun_just_outside_the_window_is_credited():
    span = candidate_span(0, YEAR_LINKS, 4, 6, 1)
    assert span.positions == (0, 1) and verdict(YEAR_SRC, YEAR_HYP, YEAR_LINKS, 0, "他", "S").correct is False
    v = verdict(YEAR_SRC, YEAR_HYP, YEAR_LINKS, 0, "他", "S", reach=3)
    assert (v.correct, v.matched, v.matched_at, v.matched_by) == (True, "he", 3, "unclaimed")
    assert unclaimed_rendering(span, YEAR_HYP, {"he"}, 0, YEAR_LINKS, [0], reach=3) == 3
    assert unclaimed_rendering(span, YEAR_HYP, {"he"}, 0, YEAR_LINKS, [0], reach=1) is None  # too far
    assert unclaimed_rendering(span, YEAR_HYP, {"he"}, 0, YEAR_LINKS, [0], reach=0) is None  # rule off


def test_a_pronoun_that_translates_an_overt_pronoun_is_not_the_zps():
    # <他>_S 转过身 ， 他 看到 -> "turning around , he saw": the only "he" renders the overt 他
    src = ["他", "转过身", "，", "他", "看到"]
    hyp = ["turning", "around", ",", "he", "saw"]
    links = {(1, 0), (1, 1), (2, 2), (3, 3), (4, 4)}
    span = candidate_span(0, links, len(src), len(hyp), 1)
    assert span.found_by == "right-neighbour" and span.positions == (0, 1)
    assert unclaimed_rendering(span, hyp, {"he"}, 0, links, [0, 3], reach=3) is None


def test_a_word_taken_by_another_zp_is_not_reused_and_the_nearest_wins():
    hyp = ["in", "2007", ",", "he", "and", "he", "left"]
    span = candidate_span(0, YEAR_LINKS, 4, len(hyp), 1)
    assert unclaimed_rendering(span, hyp, {"he"}, 0, YEAR_LINKS, [0], reach=5) == 3
    assert unclaimed_rendering(span, hyp, {"he"}, 0, YEAR_LINKS, [0], reach=5, taken={3}) == 5
    assert unclaimed_rendering(Span((), "none"), hyp, {"he"}, 0, set(), [0], reach=5) is None


def test_a_word_another_zp_matched_in_its_window_is_not_rescued_by_an_earlier_zp():
    # <他>_S 2007 年 入选 ， <他>_S 走 -> "in 2007 , he was selected and left": the second ZP is aligned to
    # "was", its window holds "he"; the first ZP, judged first, could reach that "he" only as unclaimed
    src = ["他", "2007", "年", "入选", "，", "他", "走"]
    hyp = ["in", "2007", ",", "he", "was", "selected", "and", "left"]
    links = {(0, 0), (1, 1), (3, 5), (5, 4), (6, 7)}
    first, second = (_zp("他", "S", 0), 0), (_zp("他", "S", 1), 5)
    alone = judge_segment(src, hyp, links, [first], load_zh_en(), reach=3)
    assert [(v.matched_at, v.matched_by) for v in alone] == [(3, "unclaimed")]
    both = judge_segment(src, hyp, links, [first, second], load_zh_en(), reach=3)
    assert [(v.ordinal, v.correct, v.matched_at, v.matched_by) for v in both] == [
        (0, False, None, None), (1, True, 3, "window")
    ]


def test_match_position():
    span = candidate_span(2, MONOTONE, len(SRC), len(HYP), 1)
    assert match_position(span, HYP, {"it"}) == 2 and match_position(span, HYP, {"he"}) is None
