"""DiP pronoun scorers: the causal LM scorer on a tiny GPT-2 built here (no network), the offline n-gram +
agreement scorer on hand-made text and on the real eval-anaphora pairs, and the eval-anaphora reader."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from discotest.dip import pronoun_protocol as protocol
from discotest.dip.eval_anaphora import (
    AnaphoraPair,
    load_eval_anaphora,
    load_pronoun_pair_list,
    pronoun_substitution,
    read_pairs,
    read_pronoun_pair_list,
    split_sentences,
)
from discotest.dip.ngram_lm import EOS, KneserNeyLM, normalise
from discotest.dip.pronoun_factory import make_pronoun_scorer
from discotest.dip.pronoun_pairs import SwapPair, swap_pairs
from discotest.dip.pronoun_scorer import (
    CLASSES,
    LMPronounScorer,
    OfflinePronounScorer,
)
from discotest.dip.pronoun_trained import (
    CACHE_NAMESPACE,
    FEATURE_SETS,
    FEATURES,
    L2_GRID,
    TrainedModel,
    TrainedPronounScorer,
    accuracy,
    choose,
    fit,
    sentence_features,
    training_excludes,
)
from discotest.errors import InputError


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


# ---------------------------------------------------------------------------------------------------------------
# factory


def test_factory_names():
    # "offline" is offline-v1 (the trained scorer ties with it out of sample: an option, by name)
    assert isinstance(make_pronoun_scorer(), OfflinePronounScorer)
    assert make_pronoun_scorer().signature() == make_pronoun_scorer("offline-v1").signature() == "offline-v1"
    assert isinstance(make_pronoun_scorer("offline-trained"), TrainedPronounScorer)
    hf = make_pronoun_scorer("hf:some/model", quiet=True)
    assert isinstance(hf, LMPronounScorer) and hf.name == "hf:some/model"  # nothing loaded yet
    for bad in ("gpt2", "hf:", "kenlm", "offline-v2"):
        with pytest.raises(InputError, match="unknown pronoun scorer .*choose offline, offline-v1, "
                                             "offline-trained or hf:MODEL"):
            make_pronoun_scorer(bad)


# ---------------------------------------------------------------------------------------------------------------
# causal LM scorer on a tiny random GPT-2

TRAIN_LINES = ["the cat sat on the mat .", "she said that he saw it .", "they went home and we stayed .",
               "his mother called her son .", "it was late and the dog barked ."]


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    path = tmp_path_factory.mktemp("tiny-gpt2")
    raw = Tokenizer(models.WordLevel(unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    raw.train_from_iterator(TRAIN_LINES, trainers.WordLevelTrainer(special_tokens=["<unk>", "<pad>", "<s>"]))
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=raw, unk_token="<unk>", pad_token="<pad>",
                                               bos_token="<s>", eos_token="<s>")
    tok.save_pretrained(path)
    torch.manual_seed(0)
    config = transformers.GPT2Config(vocab_size=len(tok), n_layer=1, n_embd=16, n_head=2, n_positions=64,
                                     bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
    transformers.GPT2LMHeadModel(config).save_pretrained(path)
    return path


CONTEXTS = [["the cat sat on the mat .", "it was late ."], [], ["his mother called her son ."],
            ["they went home ."]]
SENTENCES = ["she said that he saw it .", "the dog barked .", "he saw it and we stayed on the mat .", "we stayed ."]


def test_causal_lm_batched_equals_one_at_a_time(tiny_gpt2):
    batched = make_pronoun_scorer(f"hf:{tiny_gpt2}", batch_size=4, use_cache=False, quiet=True)
    single = make_pronoun_scorer(f"hf:{tiny_gpt2}", batch_size=1, use_cache=False, quiet=True)
    a, b = batched.score_raw(CONTEXTS, SENTENCES), single.score_raw(CONTEXTS, SENTENCES)
    assert [n for _, n in a] == [n for _, n in b]
    assert all(abs(x - y) < 1e-4 for (x, _), (y, _) in zip(a, b))
    assert all(x < 0 for x, _ in a)  # log-probabilities


def test_context_tokens_condition_but_are_not_scored(tiny_gpt2):
    scorer = make_pronoun_scorer(f"hf:{tiny_gpt2}", use_cache=False, quiet=True)
    sentence = "he saw it ."  # WordLevel + whitespace: 4 tokens, all scored (BOS starts the input)
    rows = scorer.score_raw([[], ["the cat sat on the mat ."], ["they went home and we stayed ."]], [sentence] * 3)
    assert [n for _, n in rows] == [4, 4, 4]
    assert len({round(s, 6) for s, _ in rows}) == 3  # each context changes the score
    ids, first = scorer.lm.encode_continuation(["the cat sat on the mat ."], sentence)
    assert len(ids) - first == 4 and first == 1 + 7  # BOS + 7 context tokens are not scored
    mean = make_pronoun_scorer(f"hf:{tiny_gpt2}", use_cache=False, quiet=True, normalise=True)
    assert mean.score([[]], [sentence])[0] == pytest.approx(rows[0][0] / 4)
    assert scorer.signature().startswith("hf:") and len(scorer.signature().rsplit("@", 1)[1].split("-")[0]) == 8
    assert "-b16-cpu-torch" in scorer.signature()
    assert mean.signature().endswith("-mean")


def test_causal_lm_cache_hit(tiny_gpt2, monkeypatch):
    scorer = make_pronoun_scorer(f"hf:{tiny_gpt2}", quiet=True)
    first = scorer.score(CONTEXTS, SENTENCES)

    def boom(*_args, **_kwargs):
        raise AssertionError("the second call must come from the cache")

    from discotest.models.causal_scorer import CausalScorer

    monkeypatch.setattr(CausalScorer, "score_continuations", boom)
    again = make_pronoun_scorer(f"hf:{tiny_gpt2}", quiet=True)
    assert again.score(CONTEXTS, SENTENCES) == first
    with pytest.raises(AssertionError):  # a different input is not a hit
        again.score([[]], ["the mat ."])


def test_causal_lm_load_error_is_one_line(tmp_path):
    pytest.importorskip("transformers")
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    # the tokenizer is read first (as for every causal LM score on the models floor), so it is the one named
    with pytest.raises(InputError, match="cannot load tokenizer of .*not-a-model") as err:
        make_pronoun_scorer(f"hf:{empty}", quiet=True).score([[]], ["it ."])
    assert "\n" not in str(err.value)
    with pytest.raises(InputError, match="contexts but"):
        make_pronoun_scorer(f"hf:{empty}", quiet=True).score([[]], ["a .", "b ."])


class _Direct:
    """The same LM scorer without ``ask``: each call scored where the run scores it, as a scorer without a model."""

    def __init__(self, scorer: LMPronounScorer) -> None:
        self.scorer, self.name, self.calls = scorer, scorer.name, []

    def signature(self) -> str:
        return self.scorer.signature()

    def score(self, contexts, sentences):
        self.calls.append(len(sentences))
        return self.scorer.score(contexts, sentences)


@pytest.mark.parametrize("mode", ["swap", "system"])
def test_lm_scorer_calls_are_requests_that_score_as_the_calls(tiny_gpt2, tmp_path, monkeypatch, mode):
    """A run states an ``hf:`` scorer's calls before it scores (``rank_requests``): the reference's, then each
    system's whose pronoun differs, one ``Ask`` of continuations per call; its numbers and signatures are those of
    the same scorer called where the run scores."""
    pytest.importorskip("spacy")
    from discotest.dip import run as dip
    from discotest.models.requests import ContinuationRequest, answer_all
    from tests.support.wmt_fakes import BAD, GOOD, write_pair

    worse = list(BAD)
    worse[2] = "He saw them yesterday."
    data = write_pair(monkeypatch, tmp_path / "d", {"Good": GOOD, "Bad": BAD, "Worse": worse})
    scorer = make_pronoun_scorer(f"hf:{tiny_gpt2}", use_cache=False, quiet=True)
    options = dict(phenomena=["anaphora"], data_dir=data, anaphora_mode=mode, n_bootstrap=100)
    stage = dip.rank_stage("wmt22", "de-en", pronoun_scorer=scorer, **options)
    asks, labels = dip.rank_requests(stage)
    n = len(stage.tests["anaphora"])
    assert labels == ["", "Bad", "Worse"] and [len(ask.requests) for ask in asks] == [n, n, n] and n >= 1
    assert all(isinstance(r, ContinuationRequest) and r.max_length == 1024 for ask in asks for r in ask.requests)
    ranking = dip.rank_scored(stage, labels, answer_all(asks))
    direct = _Direct(make_pronoun_scorer(f"hf:{tiny_gpt2}", use_cache=False, quiet=True))
    again = dip.rank("wmt22", "de-en", pronoun_scorer=direct, **options)
    assert direct.calls == [n, n, n]  # the same calls, in the same order
    assert [r.signature for r in ranking.results] == [r.signature for r in again.results]
    assert [r.scores["anaphora"].verdicts for r in ranking.results] == \
        [r.scores["anaphora"].verdicts for r in again.results]


def test_no_cache_reaches_an_hf_scorer(tiny_gpt2, tmp_path, monkeypatch):
    """``run dip --no-cache --pronoun-scorer hf:…`` (issue 52): the scorer's log-probabilities are computed again,
    neither read from the cache nor stored in it, as every other model of the run; its numbers and signatures are
    those of the run with the cache (the cache is not in the signature)."""
    pytest.importorskip("spacy")
    import discotest
    from discotest import families
    from discotest.cache import cache_dir
    from discotest.dip.family import load_models
    from discotest.models.causal_scorer import CONTINUATIONS
    from discotest.registry import settings_for
    from tests.support.wmt_fakes import BAD, GOOD, write_pair

    data = write_pair(monkeypatch, tmp_path / "d", {"Good": GOOD, "Bad": BAD})
    options = dict(pair="de-en", data="wmt22", phenomena="anaphora", pronoun_scorer=f"hf:{tiny_gpt2}",
                   data_dir=str(data), bootstrap=100, quiet=True)
    for use_cache in (True, False):
        scorer, _, _ = load_models(settings_for(families.family_of("dip"),
                                                {**options, "use_cache": use_cache}), ["anaphora"], True)
        assert (scorer.use_cache, scorer.spec.use_cache) == (use_cache, use_cache)
    kept = discotest.run("dip", **options)
    store = cache_dir() / CONTINUATIONS
    assert any(store.rglob("*.txt"))  # the scorer's answers, stored
    for entry in store.rglob("*.txt"):
        entry.write_text("damaged", "utf-8")  # a run that read them would fail on them, or score otherwise
    again = discotest.run("dip", use_cache=False, **options)
    assert all(entry.read_text("utf-8") == "damaged" for entry in store.rglob("*.txt"))  # nothing stored either
    assert [r.to_json() for r in again.results] == [r.to_json() for r in kept.results]
    assert any("hf:" in r.signature.format() for r in again.results)


# ---------------------------------------------------------------------------------------------------------------
# Kneser-Ney LM and the offline scorer


def test_normalise_matches_eval_anaphora_tokens():
    assert normalise("He didn't say, \"Württemberg?\"") == ["he", "didn", "t", "say", "w", "rttemberg", "?"]


def test_kneser_ney_is_a_distribution():
    lm = KneserNeyLM(3).fit(normalise(s) for s in TRAIN_LINES)
    vocab = list(lm.counts[1]) + ["unseen-word"]
    for history in (["<s>", "<s>"], ["she", "said"], ["the"], ["never", "seen"]):
        known = sum(lm.prob(history, w) for w in vocab if w != "unseen-word")
        # the known words plus the uniform floor's share for unknown words sum to 1
        assert known + lm.prob(history, "unseen-word") == pytest.approx(1.0, abs=1e-9), history
    assert lm.prob(["she", "said"], "that") > lm.prob(["she", "said"], "mat")  # seen continuation wins
    assert len(lm.token_logprobs(["the", "cat"])) == 3  # two words + end of sentence
    restored = KneserNeyLM.from_bytes(lm.to_bytes())
    assert restored.prob(["the"], "cat") == lm.prob(["the"], "cat")
    assert EOS in {g.split()[-1] for g in lm.counts[3]}


def _offline(weight: float = 1.0) -> OfflinePronounScorer:
    lines = ["he said so .", "she said so .", "they said so .", "it said so .", "the cat sat on the mat ."]
    lm = KneserNeyLM(3).fit(normalise(s) for s in lines)
    priors = dict.fromkeys(CLASSES, 1 / len(CLASSES))
    return OfflinePronounScorer(lm=lm, priors=priors, weight=weight)


def test_offline_agreement_follows_the_antecedent():
    scorer = _offline()
    # "he said so ." and "she said so ." are equally likely under the LM (each seen once, in the same place), so
    # the context decides:
    # a female antecedent (the name "mary", the noun "mother") favours she, a male one ("mr", "john") he.
    female, male = ["mary called her mother ."], ["mr smith met john ."]
    she, he = "she said so .", "he said so ."
    assert scorer._lm.logprob(normalise(she)) == pytest.approx(scorer._lm.logprob(normalise(he)))
    s_f, h_f = scorer.score([female, female], [she, he])
    s_m, h_m = scorer.score([male, male], [she, he])
    assert s_f > h_f and h_m > s_m
    # no evidence at all (one pronoun, no context): the bonus is 0 and only the LM speaks
    assert scorer.agreement([], ["she", "left", "."]) == pytest.approx(0.0, abs=1e-12)
    # "they" after plural cues ("people", earlier "they") beats "it"
    plural = ["people came and they left ."]
    they, it = scorer.score([plural, plural], ["they said so .", "it said so ."])
    assert they > it
    assert _offline(weight=0.0).score([plural, plural], ["they said so .", "it said so ."]) == \
        pytest.approx([they - scorer.agreement(plural, normalise("they said so .")),
                       it - scorer.agreement(plural, normalise("it said so ."))])


def test_offline_missing_training_data(tmp_path):
    with pytest.raises(InputError, match="WMT21/WMT22 English text"):
        OfflinePronounScorer(data_dir=tmp_path).score([[]], ["he left ."])
    # hand-made files of a pair the registry does not have (a registered file of other content would be refused)
    refs = tmp_path / "wmt22_general" / "txt" / "references"
    refs.mkdir(parents=True)
    (refs / "generaltest2022.cs-en.ref.A.en").write_text("he left .\n", "utf-8")
    (tmp_path / "wmt22_general" / "txt" / "system-outputs").mkdir()
    (tmp_path / "wmt22_general" / "txt" / "system-outputs" / "generaltest2022.cs-en.hyp.X.en").write_text("x\n")
    scorer = OfflinePronounScorer(data_dir=tmp_path, exclude=["cs-en"])
    assert scorer.signature() == "offline-v1[exclude=cs-en]"
    with pytest.raises(InputError, match="WMT21/WMT22 English text"):  # nothing left after the exclusion
        scorer.score([[]], ["he left ."])
    # system outputs are never training text
    assert [p.name for p in OfflinePronounScorer(data_dir=tmp_path).training_files()] == \
        ["generaltest2022.cs-en.ref.A.en"]
    assert OfflinePronounScorer(weight=1.0).signature() == "offline-v1[w=1.0]"


def test_offline_trains_from_data_dir_and_caches(tmp_path):
    refs = tmp_path / "wmt21_news" / "txt" / "references"
    refs.mkdir(parents=True)
    (refs / "newstest2021.cs-en.ref.A.en").write_text("\n".join(TRAIN_LINES) + "\n", "utf-8")  # not registered
    first = OfflinePronounScorer(data_dir=tmp_path).score([["mary came ."]], ["she said that he saw it ."])
    cached = list((tmp_path / "cache" / "dip-offline-lm").rglob("*.json.gz"))
    assert len(cached) == 1
    assert OfflinePronounScorer(data_dir=tmp_path).score([["mary came ."]], ["she said that he saw it ."]) == first


# ---------------------------------------------------------------------------------------------------------------
# eval-anaphora reader


def test_read_pairs_strips_the_sentence_from_the_context(tmp_path):
    context = ["a", "b", ".", "c", "d", "?"]
    record = {"reference_context": [*context, "he", "left", "."], "noisy_context": [*context, "it", "left", "."],
              "reference_sentence": ["he", "left", "."], "noisy_sentence": ["it", "left", "."], "origin": "x_1",
              "sample_id": 7}
    path = tmp_path / "test_data_french.jsonl"
    path.write_text(json.dumps(record) + "\n\n", "utf-8")
    (pair,) = read_pairs(path)
    assert pair.context == ("a b .", "c d ?")
    assert (pair.reference, pair.system, pair.language, pair.sample_id) == ("he left .", "it left .", "french", 7)
    assert split_sentences(["no", "end"]) == ["no end"]


def test_read_pairs_errors_name_file_and_line(tmp_path):
    path = tmp_path / "test_data_german.jsonl"
    good = json.dumps({"reference_context": [], "reference_sentence": ["a"], "noisy_sentence": ["b"]})
    path.write_text(good + "\n{not json\n", "utf-8")
    with pytest.raises(InputError, match=r"test_data_german\.jsonl:2: not valid JSON"):
        read_pairs(path)
    path.write_text(good + "\n" + json.dumps({"reference_context": [], "reference_sentence": "a b",
                                              "noisy_sentence": ["b"]}) + "\n", "utf-8")
    with pytest.raises(InputError, match=r":2: 'reference_sentence' must be a list"):
        read_pairs(path)
    with pytest.raises(InputError, match="eval-anaphora test data missing"):
        load_eval_anaphora(tmp_path)


# ---------------------------------------------------------------------------------------------------------------
# Measured on the real eval-anaphora data by bench/validity/dip_anaphora_agreement.py: 75.6% overall (chinese 80.8,
# french 71.6, german 76.8, russian 73.2); the LM alone gives 65.2%. The agreement weight 2 was picked on chinese +
# french only; german + russian went from 71.4% (first, blind default weight 1) to 75.0%. Out of sample (--protocol cv,
# weight and beta tuned on the other languages): 75.3% leave one language out, 75.4% two against two.


def test_offline_scorer_on_eval_anaphora(shared_data, monkeypatch):
    monkeypatch.delenv("DISCOTEST_CACHE")  # reuse the trained LM of the user cache (training takes ~20 s cold)
    scorer = OfflinePronounScorer(data_dir=shared_data)
    wins = total = 0
    for language, pairs in load_eval_anaphora(shared_data).items():
        assert len(pairs) == 500
        contexts = [p.context for p in pairs]
        ref = scorer.score(contexts, [p.reference for p in pairs])
        sys_ = scorer.score(contexts, [p.system for p in pairs])
        won = sum(r > s for r, s in zip(ref, sys_))
        assert won / len(pairs) >= 0.68, language
        wins, total = wins + won, total + len(pairs)
    assert wins / total >= 0.72


# ---------------------------------------------------------------------------------------------------------------
# out-of-sample protocol (dip/pronoun_protocol.py) and the user-study check


def test_pronoun_substitution_is_one_word_for_one():
    def pair(ref: str, sys_: str) -> AnaphoraPair:
        return AnaphoraPair((), ref, sys_, "", None, "german")

    assert pronoun_substitution(pair("he said it was late .", "it said it was late .")) == "he_it"
    assert pronoun_substitution(pair("we saw them .", "we saw him .")) == "them_him"
    assert pronoun_substitution(pair("he saw her .", "she saw him .")) is None  # two changes
    assert pronoun_substitution(pair("he saw it .", "he saw it there .")) is None  # an insertion
    assert pronoun_substitution(pair("he saw it .", "he saw that one .")) is None  # one word for two


def test_read_pronoun_pair_list(tmp_path):
    path = tmp_path / "pronoun_pair_list.json"
    path.write_text(json.dumps({"he_it": [[1.0, {"REF": 3}], [0.8, {"SYS": 1, "Tie": 2, "REF": 4}]]}), "utf-8")
    assert read_pronoun_pair_list(path) == {"he_it": [{"REF": 3, "SYS": 0, "Tie": 0},
                                                      {"REF": 4, "SYS": 1, "Tie": 2}]}
    for bad in ({"he_it": [[1.0, {"Maybe": 3}]]}, {"he_it": [[1.0, {"REF": -1}]]}, {"heit": []},
                {"he_it": [{"REF": 1}]}, [1, 2]):
        path.write_text(json.dumps(bad), "utf-8")
        with pytest.raises(InputError, match="pronoun_pair_list.json"):
            read_pronoun_pair_list(path)


def test_human_agreement_on_a_hand_made_study():
    study = {"he_it": [{"REF": 3, "SYS": 1, "Tie": 0}],
             "it_he": [{"REF": 1, "SYS": 0, "Tie": 1}, {"REF": 0, "SYS": 2, "Tie": 0}],
             "that_it": [{"REF": 1, "SYS": 0, "Tie": 1}],
             "she_her": [{"REF": 5, "SYS": 0, "Tie": 0}]}
    keys = ["he_it", "he_it", "he_it", "it_he", "that_it", "that_it", None]
    decisions = [True, True, False, False, True, False, True]
    rows, missing = protocol.human_agreement(study, keys, decisions)
    assert missing == ["she_her"]  # no eval-anaphora pair has this substitution: not counted
    by_key = {r.key: r for r in rows}
    # he_it: the scorer prefers the reference on 2 of 3 pairs -> label REF, the entry's majority (3 REF vs 1 SYS):
    # all 4 votes agree; vote level: the 3 REF votes agree with 2/3 of the decisions, the SYS vote with 1/3 -> 7/3
    he_it = by_key["he_it"]
    assert (he_it.label, he_it.majority_votes) == ("REF", 4)
    assert he_it.agreeing_votes == pytest.approx(7 / 3)
    # it_he: one pair, decided for the system -> SYS; entry 1 (REF 1, Tie 1) has no SYS majority, entry 2 (SYS 2)
    # agrees: 2 of 4 votes; vote level: only the 2 SYS votes agree
    it_he = by_key["it_he"]
    assert (it_he.label, it_he.majority_votes, it_he.agreeing_votes) == ("SYS", 2, 2.0)
    # that_it: decisions split evenly -> Tie, one of the entry's two most-voted labels (REF 1 = Tie 1): both votes
    # agree; vote level: the REF vote agrees with half of the decisions, a Tie vote never -> 0.5
    that_it = by_key["that_it"]
    assert (that_it.label, that_it.majority_votes, that_it.agreeing_votes) == ("Tie", 2, 0.5)
    majority, vote, votes = protocol.overall(rows)
    assert votes == 10
    assert majority == pytest.approx((4 + 2 + 2) / 10)
    assert vote == pytest.approx((7 / 3 + 2 + 0.5) / 10)


def _features(language: str, lm_margin: float, ref_agrees: bool) -> protocol.PairFeatures:
    """A pair with one pronoun per side: the agreement evidence backs the reference's (or the system's) pronoun
    fully (E_c = E = 1, prior 0.5), the LM prefers the reference by ``lm_margin``. With beta 1 the bonus
    difference is log((1 + .5) / .5) = log 3 = 1.0986, so the pair is won when lm_margin ± weight·log 3 > 0."""
    agree, disagree = ((1, 1, 0.5),), ((0, 1, 0.5),)
    ref, sys_ = (agree, disagree) if ref_agrees else (disagree, agree)
    return protocol.PairFeatures(language, None, lm_margin, ref, 0.0, sys_)


def test_tuning_and_cross_validation_by_hand():
    grid = ((0.0, 1.0), (1.0, 1.0), (2.0, 1.0))
    # x: two pairs the LM loses by 0.5 but agreement saves for weight >= 1 (1.0986 > 0.5); one pair the LM wins by
    # 1.5 against agreement, lost for weight 2 (1.5 < 2.197) -> weight 0: 1 win, 1: 3 wins, 2: 2 wins
    x = [_features("x", -0.5, True), _features("x", -0.5, True), _features("x", 1.5, False)]
    # y: three pairs the LM loses by 1.5, saved only by weight 2 -> weight 0: 0, 1: 0, 2: 3
    y = [_features("y", -1.5, True)] * 3
    assert [protocol.wins(x, w, b) for w, b in grid] == [1, 3, 2]
    assert [protocol.wins(y, w, b) for w, b in grid] == [0, 0, 3]
    assert protocol.tune(x, grid) == (1.0, 1.0)
    assert protocol.tune(x + y, grid) == (2.0, 1.0)  # in sample on everything: 5 wins of 6
    assert protocol.tune(x[:1], grid) == (1.0, 1.0)  # weights 1 and 2 both win it: the first in grid order
    folds = protocol.cross_validate({"y": y, "x": x}, "loo", grid)
    # tuned on y (weight 2) x keeps 2 of 3; tuned on x (weight 1) y loses all 3: held out 2 of 6, not the 5 of 6
    # of the in-sample choice
    assert [(f.tuned_on, f.tested_on, f.weight, f.tune_wins, f.test_wins) for f in folds] == [
        (("y",), ("x",), 2.0, 3, 2), (("x",), ("y",), 1.0, 3, 0)]
    assert protocol.held_out_decisions({"x": x, "y": y}, grid) == {"x": [True, True, False], "y": [False] * 3}
    assert protocol.folds(["a", "b", "c", "d"], "half") == [
        (("a", "b"), ("c", "d")), (("a", "c"), ("b", "d")), (("a", "d"), ("b", "c")), (("b", "c"), ("a", "d")),
        (("b", "d"), ("a", "c")), (("c", "d"), ("a", "b"))]


def test_features_decide_exactly_as_the_scorer():
    scorer = OfflinePronounScorer(lm=_offline()._lm, priors=_offline()._priors, weight=1.5, beta=3.0)
    pairs = [AnaphoraPair(("mary called her mother .",), "she said so .", "he said so .", "", None, "x"),
             AnaphoraPair(("people came .",), "they said so .", "it said so .", "", None, "x"),
             AnaphoraPair(("mr smith met john .",), "she said so .", "he said so .", "", None, "x"),
             AnaphoraPair((), "the cat sat on the mat .", "it sat on the mat .", "", None, "x")]  # LM: seen line
    features = protocol.pair_features(scorer, pairs)
    expected = [r > s for r, s in zip(scorer.score([p.context for p in pairs], [p.reference for p in pairs]),
                                      scorer.score([p.context for p in pairs], [p.system for p in pairs]))]
    assert [f.prefers_reference(1.5, 3.0) for f in features] == expected == [True, True, False, True]
    assert [f.substitution for f in features] == ["she_he", "they_it", "she_he", None]


def test_offline_scorer_out_of_sample_on_eval_anaphora(shared_data, monkeypatch):
    """bench/validity/dip_anaphora_agreement.py --protocol cv measured 75.3% held out (leave one language out) against
    75.6% in sample; the user study's 2640 votes cover all 158 of its pronoun pairs."""
    monkeypatch.delenv("DISCOTEST_CACHE")
    scorer = OfflinePronounScorer(data_dir=shared_data)
    features = {lang: protocol.pair_features(scorer, pairs) for lang, pairs in load_eval_anaphora(shared_data).items()}
    held_out = protocol.held_out_decisions(features)
    decisions = [d for lang in sorted(held_out) for d in held_out[lang]]
    assert 0.73 <= sum(decisions) / len(decisions) <= 0.76
    keys = [f.substitution for lang in sorted(features) for f in features[lang]]
    rows, missing = protocol.human_agreement(load_pronoun_pair_list(shared_data), keys, decisions)
    assert missing == [] and protocol.overall(rows)[2] == 2640
    assert 0.70 <= protocol.overall(rows)[1] <= 0.80


# ---------------------------------------------------------------------------------------------------------------
# the trained scorer (offline-trained): features, logistic fit, L2 choice, caching, swap pairs


def test_fit_logistic_by_hand():
    # one feature, rows +1, +1, -1: the unpenalised optimum of mean log(1 + exp(-w d)) solves 2·σ(-w) = σ(w), i.e.
    # e^w = 2, so w = ln 2
    rows = np.array([[1.0], [1.0], [-1.0]])
    assert fit(rows, 0.0)[0] == pytest.approx(math.log(2), abs=1e-9)
    # the same rows in other units (×2): the same decisions, the weight in the feature's own units (ln 2 / 2)
    assert fit(2 * rows, 0.0)[0] == pytest.approx(math.log(2) / 2, abs=1e-9)
    # separable rows need the penalty: the optimum of log(1 + e^-w) + 0.05 w² has σ(-w) = 0.1 w
    w = fit(np.array([[1.0], [1.0]]), 0.1)[0]
    assert 1 / (1 + math.exp(w)) == pytest.approx(0.1 * w, abs=1e-9) and w > 0
    # a feature that never differs keeps weight 0; accuracy counts strict wins only
    weights = fit(np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]]), 0.0)
    assert weights[1] == 0.0
    assert accuracy(weights, np.array([[1.0, 5.0], [-1.0, 0.0], [0.0, 3.0]])) == (1, 3)


def _rows(*rows: dict[str, float]) -> np.ndarray:
    """Feature-difference rows, all features 0 but the ones named."""
    out = np.zeros((len(rows), len(FEATURES)))
    for k, row in enumerate(rows):
        for name, value in row.items():
            out[k, FEATURES.index(name)] = value
    return out


def test_choose_leaves_one_language_out():
    # language a: three rows for the LM; language b (two references, held out together): two for, one against.
    # Every set and penalty fits a positive LM weight on either side (the other features never differ), so a keeps
    # 3/3 and b 2/3 held out: all tie at 5 of 6, and the simplest set with the strongest penalty is chosen
    rows = _rows(*[{"lm": 1.0}] * 3, {"lm": 1.0}, {"lm": 1.0}, {"lm": -1.0})
    groups = ["wmt21:a-en:A"] * 3 + ["wmt21:b-en:A", "wmt21:b-en:B", "wmt21:b-en:B"]
    best, choices = choose(rows, groups, grid=(0.01, 1.0))
    assert {(c.wins, c.n) for c in choices} == {(5, 6)} and len(choices) == 2 * len(FEATURE_SETS)
    assert (best.features, best.l2) == ("lm+agreement", 1.0)
    # the LM and the agreement bonus never differ, the count of F pronouns always does (the reference has "she"):
    # LM + agreement wins nothing (ties are not wins), every set with the class counts wins all 4 held out; the
    # smallest of those is chosen
    rows = _rows(*[{"n[F]": 1.0, "n[M]": -1.0}] * 4)
    best, _ = choose(rows, ["wmt21:a-en:A", "wmt21:a-en:A", "wmt21:b-en:A", "wmt21:b-en:A"], grid=(1.0,))
    assert (best.features, best.wins, best.n) == ("+classes", 4, 4)
    # a second feature that agrees with the first on language a and contradicts it on b. Fitted on a, the weights
    # point along (1, 1) and b's rows (1 - 3 < 0) are lost; fitted on b, along (1, -1/3) after unscaling, and a's
    # rows (1 - 1/3 > 0) are kept: 3 of 5 held out, whatever the penalty
    rows = _rows(*[{"lm": 1.0, "agreement": 1.0}] * 3, *[{"lm": 1.0, "agreement": -3.0}] * 2)
    groups = ["wmt21:a-en:A"] * 3 + ["wmt21:b-en:A"] * 2
    best, choices = choose(rows, groups, sets=("lm+agreement",), grid=(1e-4, 1.0))
    assert [(c.wins, c.n) for c in choices] == [(3, 5), (3, 5)] and best.l2 == 1.0
    # one language: nothing to hold out, the simplest set with the strongest penalty
    best, _ = choose(rows[:3], groups[:3], grid=(0.1, 10.0))
    assert (best.features, best.l2, best.n) == ("lm+agreement", 10.0, 0)


def _feature(name: str) -> int:
    return FEATURES.index(name)


def test_sentence_features_by_hand():
    base = _offline()
    female = ["mary called her mother ."]  # evidence F = 3 (mary, her, mother)
    she = sentence_features(base, female, "she said so .")
    he = sentence_features(base, female, "he said so .")
    assert she[_feature("lm")] == pytest.approx(base.lm_logprob(normalise("she said so .")))
    assert she[_feature("agreement")] == pytest.approx(base.agreement(female, normalise("she said so .")))
    # she: one F pronoun whose context points to F; all of its evidence is for it
    assert she[_feature("n[F]")] == 1 and she[_feature("n[F|F]")] == 1
    assert she[_feature("support")] == 1.0 and she[_feature("log_for")] == pytest.approx(math.log(4))
    assert she[_feature("log_against")] == 0.0
    # he: one M pronoun in a context pointing to F; none of the evidence is for it
    assert he[_feature("n[M]")] == 1 and he[_feature("n[M|F]")] == 1 and he[_feature("support")] == 0.0
    assert he[_feature("log_against")] == pytest.approx(math.log(4))
    # no context, no other cue: the pronoun's context class is "none"; a sentence without pronouns has only the LM
    alone = sentence_features(base, [], "she left .")
    assert alone[_feature("n[F|none]")] == 1 and alone[_feature("support")] == 0.0
    plain = sentence_features(base, female, "the cat sat on the mat .")
    assert np.count_nonzero(plain) == 1 and plain[_feature("lm")] < 0


def _swap(lang: str, context: str, ref: str, sys_: str) -> SwapPair:
    return SwapPair(f"wmt21:{lang}:A", (context,), ref, sys_, ref.split()[0], sys_.split()[0])


def test_trained_scorer_learns_agreement_and_caches(tmp_path):
    # two "languages" of hand-made pairs whose reference pronoun agrees with the context and the swapped one does
    # not; the LM cannot tell them apart (each sentence seen once), so only the pronoun features can decide
    female, male, plural = "mary called her mother .", "mr smith met john .", "people came ."
    pairs = [_swap("a-en", female, "she said so .", "he said so ."),
             _swap("a-en", male, "he said so .", "she said so ."),
             _swap("a-en", plural, "they said so .", "it said so ."),
             _swap("b-en", female, "she said so .", "it said so ."),
             _swap("b-en", male, "he said so .", "they said so .")]
    scorer = TrainedPronounScorer(base=_offline())
    model = scorer.train(pairs)
    assert model.n == 5 and model.l2 in L2_GRID and len(model.weights) == len(FEATURES)
    assert model.features in FEATURE_SETS
    scorer = TrainedPronounScorer(base=_offline(), model=model)
    # pairs it never saw: a female context prefers she to they, a male one he to it
    ref, other = scorer.score([[female], [female]], ["she said so .", "they said so ."])
    assert ref > other
    ref, other = scorer.score([[male], [male]], ["he said so .", "it said so ."])
    assert ref > other
    # cached by the pairs' content: a second fit is the stored one; other pairs are another entry
    assert TrainedPronounScorer(base=_offline()).train(pairs) == model
    assert len(list((tmp_path / "cache" / CACHE_NAMESPACE).rglob("*.txt"))) == 1
    TrainedPronounScorer(base=_offline()).train(pairs[:4])
    assert len(list((tmp_path / "cache" / CACHE_NAMESPACE).rglob("*.txt"))) == 2
    assert TrainedModel.from_json(model.to_json()) == model
    # the signature names the version, the training data and the hash of the mined pairs
    assert scorer.signature() == f"offline-trained-v1[train=wmt21:de-en.A,de-en.B,ja-en.A,ru-en.A,ru-en.B,zh-en.A@" \
                                 f"{model.data[:8]}]"
    with pytest.raises(InputError, match="no pronoun pairs"):
        TrainedPronounScorer(base=_offline()).train([])


def test_training_pairs_keep_out_of_the_lm():
    assert training_excludes() == ("newstest2021.de-en.", "newstest2021.ja-en.", "newstest2021.ru-en.",
                                   "newstest2021.zh-en.")
    scorer = TrainedPronounScorer(data_dir="/nowhere", exclude=("generaltest2022.de-en.",))
    assert scorer.base.exclude == (*training_excludes(), "generaltest2022.de-en.")
    assert scorer.training_base().exclude == training_excludes()  # the fit does not depend on the scored pair


def test_swap_pairs_from_a_hand_made_pair():
    from discotest.dip.documents import Document, PairData

    ref = ["Mary came home.", "She was tired.", "Her son waited.", "He smiled at her."]
    one = ["Mary came home.", "He was tired.", "Her son waited.", "He smiled at him."]
    two = ["Mary came home.", "It was tired.", "Her son waited.", "He smiled at her."]
    docs = [Document("d", 0, 4)]
    pair = PairData("wmt21", "xx-en", "A", ref, ref, {"S1": one, "S2": two}, ["d"] * 4, docs)
    got = [(p.context, p.reference, p.swapped, p.ref_pronoun, p.sys_pronoun) for p in swap_pairs(pair)]
    # line 1: she -> he (S1) and it (S2), one pair each, pronoun order; line 3: her -> him (S1 only); the context is
    # the two previous reference lines
    assert got == [
        (("Mary came home.",), "She was tired.", "He was tired.", "she", "he"),
        (("Mary came home.",), "She was tired.", "It was tired.", "she", "it"),
        (("She was tired.", "Her son waited."), "He smiled at her.", "He smiled at him.", "her", "him")]
    assert {p.group for p in swap_pairs(pair)} == {"wmt21:xx-en:A"}
