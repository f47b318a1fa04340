"""The Hugging Face seq2seq scorer on a tiny randomly initialised Marian model built here (no network)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

from discotest.cli import main  # noqa: E402
from discotest.contrastive.run import score_requests  # noqa: E402
from discotest.contrastive.suites import load_suite  # noqa: E402
from discotest.data.contrastive_item import make_item  # noqa: E402
from discotest.models.hf_scorer import HFScorer, context_pairs, model_fingerprint  # noqa: E402
from tests.support.cli_helpers import results_of
from tests.support.tiny_marian import build_tiny_marian  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_marian(tmp_path_factory.mktemp("tiny-marian"))


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


ITEMS = score_requests([
    make_item(0, src="He came.", correct="Ils seront bientôt pleins .", incorrect=["Elles seront bientôt pleines ."],
              src_context=("a .", "The buildings .", "They are new ."), tgt_context=("x .", "Les bâtiments .", "y ."),
              distance=2),
    make_item(1, src="Tu es là.", correct="Ты никогда .", incorrect=["Вы никогда ."], distance=0),
])


def test_k_to_1_concatenation():
    pairs = context_pairs(ITEMS, 2, separator=" <sep> ")
    assert pairs[0] == ("The buildings . <sep> They are new . <sep> He came.", "Les bâtiments . <sep> y .",
                        "Ils seront bientôt pleins .")
    assert context_pairs(ITEMS, 0)[0] == ("He came.", "", "Ils seront bientôt pleins .")
    assert context_pairs(ITEMS, 1, use_target_context=False)[0][1] == ""


def test_batched_equals_one_at_a_time_and_only_current_tokens_scored(tiny):
    batched = HFScorer(str(tiny), batch_size=8, use_cache=False, quiet=True)
    single = HFScorer(str(tiny), batch_size=1, use_cache=False, quiet=True)
    pairs = context_pairs(ITEMS, 3)
    a, b = batched.score_pairs(pairs), single.score_pairs(pairs)
    assert [n for _, n in a] == [n for _, n in b]
    assert all(abs(x - y) < 1e-3 for (x, _), (y, _) in zip(a, b))
    # with a target prefix, exactly the candidate's own tokens (+ </s>) are scored
    no_prefix = batched.score_pairs([(s, "", c) for s, _, c in pairs])
    assert [n for _, n in a] == [n for _, n in no_prefix]
    assert a[0][0] != no_prefix[0][0]  # but the prefix conditions them
    enc = batched.encode(*pairs[0])
    assert enc.target[enc.score_from:] == batched.tokenizer(text_target=pairs[0][2])["input_ids"]


def test_sum_and_length_normalised(tiny):
    total = HFScorer(str(tiny), use_cache=False, quiet=True).score_items(ITEMS, context=0)
    mean = HFScorer(str(tiny), use_cache=False, quiet=True, normalise=True).score_items(ITEMS, context=0)
    raw = HFScorer(str(tiny), use_cache=False, quiet=True).score_pairs(context_pairs(ITEMS, 0))
    assert mean[0][0] == pytest.approx(total[0][0] / raw[0][1], rel=1e-5)
    assert all(s < 0 for item in total for s in item)


def test_cache_is_keyed_by_model_content(tiny, tmp_path):
    scorer = HFScorer(str(tiny), quiet=True)
    first = scorer.score_items(ITEMS, 1)
    assert list((tmp_path / "cache" / "candidate-logprobs").rglob("*.txt"))
    def fail(_):
        raise AssertionError("a cache hit must not run the model")

    scorer.score_encoded_sets = fail
    assert scorer.score_items(ITEMS, 1) == first
    with pytest.raises(AssertionError, match="cache hit"):
        scorer.score_items(ITEMS, 2)  # other options, other key
    assert model_fingerprint(str(tiny)).startswith("local:") and model_fingerprint("org/m") == "hub:org/m@main"


def test_cli_end_to_end_two_context_sizes(tiny, capsys):
    assert main(["run", "jazp", "--model", str(tiny), "--context", "0", "--context", "3", "--compare", "-q",
                 "--batch-size", "16"]) == 0
    out = capsys.readouterr().out
    assert "@ctx0: accuracy" in out and "@ctx3: accuracy" in out and "d=3" in out
    assert "context:3to1" in out and "bootstrap p" in out and "sign p" in out


def test_cli_voita_subset_via_jsonl(tiny, shared_data, tmp_path, capsys):
    items = load_suite("voita-deixis", shared_data)[:6]
    path = tmp_path / "suite.jsonl"
    path.write_text("\n".join(json.dumps({"source": i.src, "context": list(i.src_context),
                                          "target_context": list(i.tgt_context), "correct": i.correct,
                                          "incorrect": list(i.incorrect), "distance": i.distance},
                                         ensure_ascii=False) for i in items) + "\n")
    assert main(["run", "contrastive-jsonl", "--input", str(path), "--model", str(tiny), "--context", "3",
                 "-q", "--format", "json"]) == 0
    data = results_of(capsys.readouterr().out)
    assert data[0]["scores"]["overall"]["n"] == 6


def test_cli_bad_model_is_one_line(tmp_path, capsys):
    assert main(["run", "jazp", "--model", str(tmp_path / "nope"), "-q"]) == 2
    err = capsys.readouterr().err
    assert "nope: model folder not found" in err and err.count("\n") == 1


class FakeResult:
    def __init__(self, log_probs):
        self.log_probs = log_probs


class FakeTranslator:
    """Stands in for ctranslate2.Translator: one log-prob per target token plus one for </s>."""

    def __init__(self):
        self.calls = []

    def score_batch(self, source, target, max_batch_size=0):
        self.calls.append((source, target))
        return [FakeResult([-1.0] * (len(t) + 1)) for t in target]


def test_ct2_scorer_token_conversion_and_slicing(tiny):
    from discotest.models.ct2_scorer import CT2Scorer, is_ct2_model

    fake = FakeTranslator()
    scorer = CT2Scorer(str(tiny), translator=fake, use_cache=False, quiet=True, batch_size=2)
    hf = HFScorer(str(tiny), use_cache=False, quiet=True)
    pairs = context_pairs(ITEMS, 3)
    got = scorer.score_pairs(pairs)
    # same number of scored positions as the HF scorer (current sentence + </s>), prefix left out
    assert [n for _, n in got] == [n for _, n in hf.score_pairs(pairs)]
    assert all(s == -n for s, n in got)
    source, target = fake.calls[0][0][0], fake.calls[0][1][0]
    assert source[-1] == "</s>" and target[-1] != "</s>"
    enc = scorer.encode(*pairs[0])
    assert scorer.tokenizer.convert_tokens_to_ids(scorer.to_tokens(enc)[1]) == enc.target[:-1]
    assert not is_ct2_model(str(tiny)) and dict(scorer.signature_fields(1))["engine"].startswith("ctranslate2-")
    assert dict(scorer.signature_fields(1))["compute"] == "default"


def test_ct2_convert_copies_tokenizer_files(tiny, tmp_path):
    from discotest.models.ct2_scorer import convert_model

    seen = {}

    class FakeConverter:
        def __init__(self, name, copy_files=None):
            seen.update(name=name, copy_files=copy_files)

        def convert(self, output_dir, quantization=None, force=False):
            seen.update(quantization=quantization, force=force)
            return output_dir

    out = convert_model(str(tiny), tmp_path / "ct2", "int8", converter_cls=FakeConverter)
    assert out == tmp_path / "ct2" and seen["quantization"] == "int8" and seen["force"]
    assert {"source.spm", "target.spm", "vocab.json"} <= set(seen["copy_files"])


def test_cli_scorer_options_reach_the_scorer(tiny, capsys):
    """--separator, --logprob mean and --no-target-context change what is scored and say so in the signature."""
    assert main(["run", "jazp", "--model", str(tiny), "--context", "1", "-q", "--format", "json",
                 "--separator", " <sep> ", "--logprob", "mean", "--no-target-context"]) == 0
    signature = results_of(capsys.readouterr().out)[0]["signature"]
    assert "sep:' <sep> '" in signature and "logprob:mean" in signature and "tgtctx:no" in signature
    assert main(["run", "jazp", "--model", str(tiny), "--context", "1", "-q", "--format", "json"]) == 0
    default = results_of(capsys.readouterr().out)[0]["signature"]
    assert "sep:' '" in default and "logprob:sum" in default and "tgtctx:yes" in default


def test_suites_name_their_languages_for_multilingual_scorers():
    from discotest.contrastive.suites import language_pair

    assert language_pair("voita-deixis") == ("en", "ru") and language_pair("scat") == ("en", "fr")
    assert language_pair("ctxpro-gender-en-es-dev") == ("en", "es") and language_pair("jazp") == ("ja", "en")
    assert language_pair("contrastive-jsonl") is None


# -- tiny mBART-50 and NLLB with their real tokenizers (fixtures in conftest.py) ----------------------------------


@pytest.mark.parametrize(("fam", "src_code", "tgt_code"),
                         [("mbart50", "en_XX", "ru_RU"), ("nllb", "eng_Latn", "rus_Cyrl")])
def test_mbart50_and_nllb_score_after_the_target_code(request, fam, src_code, tgt_code):
    """The target side is what these models are trained on: [tgt code] text </s>, fed to the decoder shifted right
    after </s> (decoder_start_token_id). The code is teacher-forced but NOT scored (``score_from`` is past it): at
    generation time it is forced (forced_bos_token_id), and its log-probability, the same for every candidate (same
    source, same decoder input </s>), would only add a constant and skew the mean (--logprob mean)."""
    import torch

    folder = request.getfixturevalue(f"tiny_{fam}")
    batched = HFScorer(str(folder), src_lang="en", tgt_lang="ru", batch_size=8, use_cache=False, quiet=True)
    single = HFScorer(str(folder), src_lang="en", tgt_lang="ru", batch_size=1, use_cache=False, quiet=True)
    tok, model = batched.tokenizer, batched.model
    assert (type(tok).__name__, tok.src_lang, tok.tgt_lang) == ({"mbart50": "MBart50Tokenizer",
                                                                  "nllb": "NllbTokenizer"}[fam], src_code, tgt_code)
    pairs = context_pairs(ITEMS, 3)  # item 0 with a target prefix, item 1 without
    a, b = batched.score_pairs(pairs), single.score_pairs(pairs)
    assert [n for _, n in a] == [n for _, n in b]
    assert all(abs(x - y) < 1e-3 for (x, _), (y, _) in zip(a, b))
    src_id, tgt_id, eos = tok.convert_tokens_to_ids(src_code), tok.convert_tokens_to_ids(tgt_code), tok.eos_token_id
    for (source, prefix, candidate), (_, n) in zip(pairs, a):
        enc = batched.encode(source, prefix, candidate)
        plain = tok(text_target=candidate, add_special_tokens=False)["input_ids"]
        assert enc.source[0] == src_id and enc.source[-1] == eos
        # the decoder sees the code, then the context and the candidate exactly as one running text would be
        # tokenized (no stray '▁' between them), then </s>
        running = f"{prefix} {candidate}" if prefix else candidate
        assert enc.target == tok(text_target=running)["input_ids"]
        assert enc.target[0] == tgt_id and enc.target[enc.score_from:] == plain + [eos]
        assert n == len(plain) + 1  # the candidate's pieces and </s>; neither the code nor the prefix
    sep = HFScorer(str(folder), src_lang="en", tgt_lang="ru", separator=" <sep> ", use_cache=False, quiet=True)
    source, prefix, candidate = context_pairs(ITEMS, 3, separator=" <sep> ")[0]
    assert sep.encode(source, prefix, candidate).target == tok(text_target=f"{prefix} <sep> {candidate}")["input_ids"]
    # the sum is the model's own: decoder input </s> + target[:-1], log-probs of target[score_from:]
    enc = batched.encode(*pairs[0])
    labels = torch.tensor([enc.target])
    decoder_in = [[eos] + enc.target[:-1]]
    assert batched._decoder_inputs(model, labels, tok.pad_token_id).tolist() == decoder_in
    with torch.inference_mode():
        logp = model(input_ids=torch.tensor([enc.source]), decoder_input_ids=torch.tensor(decoder_in)).logits
    logp = torch.log_softmax(logp[0].float(), dim=-1)
    expected = sum(float(logp[i, t]) for i, t in enumerate(enc.target) if i >= enc.score_from)
    assert a[0][0] == pytest.approx(expected, abs=1e-3)


def test_cli_jazp_with_a_tiny_mbart50(tiny_mbart50, capsys, monkeypatch):
    """`discotest run jazp --model MBART50` end to end: jazp is ja->en, so ja_XX on the source, en_XX first on the
    target side."""
    seen = []
    real = HFScorer.encode
    monkeypatch.setattr(HFScorer, "encode", lambda self, *pair: seen.append((self, real(self, *pair))) or seen[-1][1])
    assert main(["run", "jazp", "--model", str(tiny_mbart50), "-q", "--format", "json"]) == 0
    data = results_of(capsys.readouterr().out)
    # named by its folder, as a translation signature names it (issue 40 item 3: it was the absolute path here)
    assert data[0]["scores"]["overall"]["n"] > 0 and f"|model:{tiny_mbart50.name}|" in data[0]["signature"]
    assert str(tiny_mbart50.parent) not in data[0]["signature"]
    scorer, enc = seen[0]
    tok = scorer.tokenizer
    assert (tok.src_lang, tok.tgt_lang) == ("ja_XX", "en_XX")
    assert tok.convert_ids_to_tokens([enc.source[0], enc.target[0]]) == ["ja_XX", "en_XX"] and enc.score_from >= 1


def test_scores_of_another_compute_type_or_batch_are_not_taken_from_the_cache(tiny, tmp_path, monkeypatch):
    """int8 and float32 scores differ, and so can two batch sizes (padding): each keys its own cache entry."""
    from discotest.models.ct2_scorer import CT2Scorer

    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    pairs = context_pairs(ITEMS, 0)
    fakes = []

    def score(**options):
        fakes.append(FakeTranslator())
        CT2Scorer(str(tiny), translator=fakes[-1], quiet=True, **options).score_pairs(pairs)
        return len(fakes[-1].calls)

    assert score(compute_type="default") > 0
    assert score(compute_type="default") == 0  # the same settings: from the cache
    assert score(compute_type="int8") > 0
    assert score(compute_type="int8", batch_size=1) > 0
