"""Model systems: language codes per family, batched cached translation with a tiny Marian model built here (no
network), and `discotest run GENDER-SUITE --model DIR` end to end, twice (the second run translates nothing)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("sentencepiece")

import torch  # noqa: E402

from discotest.cli import main  # noqa: E402
from discotest.errors import InputError  # noqa: E402
from discotest.models.hf_models import family, family_of_dir, language_codes  # noqa: E402
from discotest.models.translator import CT2Translator, ModelTranslator, make_translator  # noqa: E402
from tests.support.cli_helpers import assert_one_line_error, one_result, run_cli  # noqa: E402
from tests.support.tiny_marian import TEXT, build_tiny_marian  # noqa: E402

DEMO_LINES = [
    "The developer argued with the designer because she did not like the design .",
    "Der Entwickler stritt mit der Designerin , weil sie das Design nicht mochte .",
    "The mechanic gave the clerk a present because he won the lottery .",
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_marian(tmp_path_factory.mktemp("tiny-marian"), corpus_lines=(TEXT + DEMO_LINES) * 3)


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


# -- families and language codes ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fam", "src", "tgt", "codes"),
    [
        ("m2m100", "en", "de", ("en", "de", "__de__")),
        ("mbart50", "en", "de", ("en_XX", "de_DE", "de_DE")),
        ("mbart50", "en", "zh", ("en_XX", "zh_CN", "zh_CN")),
        ("nllb", "en", "he", ("eng_Latn", "heb_Hebr", "heb_Hebr")),
        ("nllb", "en", "srp_Latn", ("eng_Latn", "srp_Latn", "srp_Latn")),  # the family's own code is kept
        ("marian", "en", "de", (None, None, None)),
    ],
)
def test_language_codes_per_family(fam, src, tgt, codes):
    got = language_codes(fam, src, tgt)
    assert (got.src, got.tgt, got.forced_bos) == codes


def test_family_detection_and_unknowns(tiny, tmp_path):
    assert family("M2M100Tokenizer") == "m2m100" and family("NllbTokenizerFast") == "nllb"
    assert family("MBart50TokenizerFast") == "mbart50" and family(None, "marian") == "marian"
    assert family(None, "m2m_100", "facebook/nllb-200-distilled-600M") == "nllb"
    assert family(None, "m2m_100", "facebook/m2m100_418M") == "m2m100"
    assert family_of_dir(tiny) == "marian"
    with pytest.raises(InputError, match="unknown model family .*BertTokenizer"):
        family("BertTokenizer", "bert", "bert-base")
    with pytest.raises(InputError, match="unknown language code 'xx' for nllb"):
        language_codes("nllb", "en", "xx")
    with pytest.raises(InputError, match="unknown language code 'xx'"):
        language_codes("marian", "en", "xx")
    with pytest.raises(InputError, match="unknown language code 'de_XX' for mbart50"):
        language_codes("mbart50", "en", "de_XX")


class FakeTokenizer:
    """Stands in for an M2M100/NLLB/mBART-50 tokenizer: its class name decides the family, as with the real ones."""

    unk_token_id = 3
    ids = {"__de__": 7, "deu_Latn": 8, "de_DE": 9}

    def __init__(self):
        self.src_lang = self.tgt_lang = None
        self.calls = []

    def convert_tokens_to_ids(self, token):
        return self.ids.get(token, self.unk_token_id)

    def get_vocab(self):
        return dict(self.ids)

    def __call__(self, texts, **kwargs):
        self.calls.append((list(texts), self.src_lang))
        return {"input_ids": torch.ones((len(texts), 2), dtype=torch.long),
                "attention_mask": torch.ones((len(texts), 2), dtype=torch.long)}

    def batch_decode(self, out, skip_special_tokens=True):
        return [f"T{int(row[0])}" for row in out]


class FakeModel:
    class config:  # noqa: N801 - mirrors model.config
        model_type = "m2m_100"

    def __init__(self):
        self.kwargs = []

    def generate(self, input_ids, attention_mask, **kwargs):
        self.kwargs.append(kwargs)
        return torch.arange(len(input_ids)).unsqueeze(1)


@pytest.mark.parametrize(
    ("tokenizer_class", "src_lang", "forced"),
    [("M2M100Tokenizer", "en", 7), ("NllbTokenizerFast", "eng_Latn", 8), ("MBart50TokenizerFast", "en_XX", 9)],
)
def test_generation_forces_the_target_language(tokenizer_class, src_lang, forced):
    tok = type(tokenizer_class, (FakeTokenizer,), {})()
    model = FakeModel()
    translator = ModelTranslator("org/model", "de", model=model, tokenizer=tok, fingerprint="hub:org/model@x",
                                 beam=3, max_length=20, batch_size=2, use_cache=False, quiet=True)
    out = translator.translate(["a b c", "a", "a b", "a"])
    assert len(out) == 4 and out[1] == out[3]  # repeated sentences are translated once
    assert translator.translated == 3
    assert all(k == {"num_beams": 3, "max_new_tokens": 20, "forced_bos_token_id": forced} for k in model.kwargs)
    assert tok.src_lang == src_lang
    assert [texts for texts, _ in tok.calls] == [["a b c", "a b"], ["a"]]  # length-sorted batches


def test_missing_language_token_is_an_input_error():
    tok = type("M2M100Tokenizer", (FakeTokenizer,), {"ids": {}})()
    translator = ModelTranslator("org/model", "de", model=FakeModel(), tokenizer=tok, fingerprint="x", use_cache=False)
    with pytest.raises(InputError, match="no language token '__de__'"):
        translator.translate(["a"])


def test_multi_target_marian_gets_its_target_token():
    tok = type("MarianTokenizer", (FakeTokenizer,), {"ids": {">>es<<": 5}})()
    translator = ModelTranslator("Helsinki-NLP/opus-mt-en-ROMANCE", "es", model=FakeModel(), tokenizer=tok,
                                 fingerprint="x", use_cache=False, quiet=True)
    translator.translate(["Hello ."])
    assert tok.calls[0][0] == [">>es<< Hello ."]
    assert translator.generation_kwargs() == {}


# -- the tiny Marian model ------------------------------------------------------------------------------------------
def test_batched_equals_one_at_a_time_and_the_cache_is_used(tiny):
    sources = [DEMO_LINES[0], "he took a bath when he got home .", DEMO_LINES[2], "they were tired ."]
    batched = ModelTranslator(str(tiny), "de", beam=1, batch_size=4, max_length=12, use_cache=False, quiet=True)
    single = ModelTranslator(str(tiny), "de", beam=1, batch_size=1, max_length=12, use_cache=False, quiet=True)
    assert batched.translate(sources) == single.translate(sources)
    first = ModelTranslator(str(tiny), "de", beam=2, max_length=12, quiet=True)
    out = first.translate(sources)
    assert first.translated == 4 and all(isinstance(t, str) for t in out)
    again = ModelTranslator(str(tiny), "de", beam=2, max_length=12, quiet=True)
    assert again.translate(sources) == out and again.translated == 0 and again.cache_hits == 4
    other = ModelTranslator(str(tiny), "de", beam=1, max_length=12, quiet=True)  # other options, other key
    other.translate(sources[:1])
    assert other.translated == 1
    fields = dict(first.signature_fields())
    assert fields["model"] == tiny.name and fields["beam"] == "2" and len(fields["model_hash"]) == 12


def _run(tiny, *extra):
    # a tiny random model writes no German: its run is refused unless the language check is skipped
    # (tests/models/test_language_watch.py)
    return main(["run", "winomt-demo", "--lang", "de", "--model", str(tiny), "--max-length", "24", "-q",
                 "--format", "json", "--skip-language-check", *extra])


def test_run_winomt_demo_with_a_model_twice(tiny, capsys, monkeypatch):
    calls = []
    real = ModelTranslator.generate
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, texts: calls.append(len(texts)) or real(self, texts))
    start = time.perf_counter()
    assert _run(tiny) == 0
    first_seconds = time.perf_counter() - start
    first = one_result(capsys.readouterr().out)
    assert first["scores"]["n"] == 16 and sum(calls) == 16
    sig = first["signature"]
    assert "|system:" in sig and f"|model:{tiny.name}|" in sig and "|beam:4|max_len:24|markers:none|" in sig
    assert "|langcheck:off" in sig

    def fail(self, texts):
        raise AssertionError("a cached run must not translate")

    monkeypatch.setattr(ModelTranslator, "generate", fail)
    start = time.perf_counter()
    assert _run(tiny) == 0
    second_seconds = time.perf_counter() - start
    second = one_result(capsys.readouterr().out)
    assert second["scores"] == first["scores"] and second["signature"] == sig
    print(f"\nwinomt-demo with a tiny Marian: first run {first_seconds:.2f} s, cached rerun {second_seconds:.2f} s")


def test_markers_change_the_source_and_the_signature(tiny, capsys, monkeypatch):
    seen = []
    real = ModelTranslator.generate
    monkeypatch.setattr(ModelTranslator, "generate", lambda self, texts: seen.extend(texts) or real(self, texts))
    assert _run(tiny, "--markers", "gold") == 0
    result = one_result(capsys.readouterr().out)
    assert "|markers:gold|" in result["signature"] and result["system"].endswith("+gold-markers")
    assert all("<ENT1>" in s for s in seen) and len(seen) == 16
    seen.clear()
    assert _run(tiny, "--markers", "predicted") == 0
    assert "|markers:predicted:rules|" in one_result(capsys.readouterr().out)["signature"]
    # the rules resolver marks all 16 demo sentences, 12 exactly as the gold cluster: those come from the cache
    assert len(seen) == 4 and all("<ENT1>" in s for s in seen)


def test_translate_then_run_input_gives_the_same_scores(tiny, tmp_path, capsys):
    out = tmp_path / "demo.de.txt"
    assert main(["translate", "--suite", "winomt-demo", "--lang", "de", "--model", str(tiny), "--max-length", "24",
                 "-o", str(out), "-q"]) == 0
    assert len(out.read_text("utf-8").splitlines()) == 16
    # a tiny random model writes no German: the language check would refuse the file (tests/test_input_plausibility)
    assert main(["run", "winomt-demo", "-l", "de", "--input", str(out), "-q", "--format", "json",
                 "--skip-language-check"]) == 0
    by_file = one_result(capsys.readouterr().out)
    assert _run(tiny) == 0
    by_model = one_result(capsys.readouterr().out)
    assert by_file["scores"] == by_model["scores"]
    src = tmp_path / "en.txt"
    src.write_text("he took a bath when he got home .\nthey were tired .\n")
    assert main(["translate", "-i", str(src), "-l", "de", "-m", str(tiny), "-o", str(tmp_path / "x.de"), "-q",
                 "--max-length", "8"]) == 0
    assert len((tmp_path / "x.de").read_text().splitlines()) == 2
    assert main(["translate", "-i", str(src), "-l", "de", "-m", str(tiny), "-o", str(tmp_path / "y.de"), "-q",
                 "--max-length", "8", "--markers", "predicted"]) == 0
    assert len((tmp_path / "y.de").read_text().splitlines()) == 2
    assert main(["translate", "-i", str(src), "-l", "de", "-m", str(tiny), "-o", str(tmp_path / "z.de"), "-q",
                 "--markers", "gold"]) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "xx"], "unknown language"),  # rejected by the suite's language list first
        (["--lang", "de", "--model", "{tmp}/missing"], "missing: model folder not found"),
        (["--lang", "de", "--model", "{tmp}/bert"], "unknown model family"),
        (["--lang", "de", "--system", "google"], "without --system/--input"),
        (["--lang", "de", "--beam", "0"], "--beam: must be between 1 and 1000"),
        (["--lang", "de", "--input", "x.txt", "--markers", "gold"], "give --model"),
    ],
)
def test_bad_model_input_is_one_line(tiny, tmp_path, capsys, args, message):
    (tmp_path / "bert").mkdir()
    (tmp_path / "bert" / "config.json").write_text('{"model_type": "bert"}')
    args = [a.format(tmp=tmp_path) for a in args]
    if "--model" not in args and "--input" not in args:
        args += ["--model", str(tiny)]
    code, _, err = run_cli(capsys, "run", "winomt-demo", "-q", *args)
    assert_one_line_error(code, err, message)


def test_translate_unknown_language_and_empty_line(tiny, tmp_path, capsys):
    assert main(["translate", "--suite", "winomt-demo", "-l", "xx", "-m", str(tiny), "-o", str(tmp_path / "o")]) == 2
    assert "unknown language code 'xx'" in capsys.readouterr().err
    src = tmp_path / "en.txt"
    src.write_text("a .\n\nb .\n")
    assert main(["translate", "-i", str(src), "-l", "de", "-m", str(tiny), "-o", str(tmp_path / "o"), "-q"]) == 2
    assert f"{src}:2: empty line" in capsys.readouterr().err


# -- CTranslate2 ----------------------------------------------------------------------------------------------------
class FakeCT2Result:
    def __init__(self, hypothesis):
        self.hypotheses = [hypothesis]


class FakeCT2:
    def __init__(self):
        self.calls = []

    def translate_batch(self, tokens, target_prefix=None, beam_size=1, max_decoding_length=0, max_batch_size=0):
        self.calls.append((tokens, target_prefix, beam_size, max_decoding_length))
        return [FakeCT2Result(list(t[:-1])) for t in tokens]  # echo the source pieces


def test_ct2_translator_passes_tokens_and_options(tiny):
    fake = FakeCT2()
    translator = CT2Translator(str(tiny), "de", translator=fake, beam=3, max_length=30, use_cache=False, quiet=True)
    out = translator.translate(["he took a bath ."])
    tokens, prefix, beam, max_len = fake.calls[0]
    assert tokens[0][-1] == "</s>" and prefix is None and (beam, max_len) == (3, 30)
    assert out == ["he took a bath ."]  # the echoed pieces decode back to the source
    assert ("engine", "ctranslate2") in translator.signature_fields()
    assert isinstance(make_translator(str(tiny), "de"), ModelTranslator)
    assert not isinstance(make_translator(str(tiny), "de"), CT2Translator)


def test_ct2_real_conversion_translates_like_transformers(tmp_path):
    """Only where ctranslate2 is installed: convert a tiny Marian (pad last, as Opus-MT) and decode greedily."""
    pytest.importorskip("ctranslate2")
    from discotest.models.ct2_scorer import convert_model

    hf_dir = build_tiny_marian(tmp_path / "tiny", pad_last=True)
    ct2_dir = convert_model(str(hf_dir), tmp_path / "ct2")
    ct2 = make_translator(str(ct2_dir), "de", beam=1, max_length=10, quiet=True)
    assert isinstance(ct2, CT2Translator) and family_of_dir(ct2_dir) == "marian"
    sources = ["he took a bath when he got home .", "they were tired but they kept running ."]
    hf = ModelTranslator(str(hf_dir), "de", beam=1, max_length=10, use_cache=False, quiet=True).translate(sources)
    got = ct2.translate(sources)
    # same greedy path; the engines count the length limit differently (Transformers includes the forced </s>)
    assert all(g.replace(" ", "").startswith(h.replace(" ", "")[:8]) for g, h in zip(got, hf))
    again = make_translator(str(ct2_dir), "de", beam=1, max_length=10, quiet=True)
    assert again.translate(sources) == got and again.translated == 0


def test_scorer_shares_the_language_code_mapping():
    from discotest.models.hf_scorer import HFScorer

    tok = type("NllbTokenizerFast", (FakeTokenizer,), {})()
    scorer = HFScorer("facebook/nllb-200-distilled-600M", src_lang="en", tgt_lang="de", tokenizer=tok)
    assert scorer.tokenizer is tok and (tok.src_lang, tok.tgt_lang) == ("eng_Latn", "deu_Latn")
    odd = type("SomeTokenizer", (FakeTokenizer,), {})()  # unknown family: codes are passed through as given
    assert HFScorer("x", src_lang="en", tgt_lang="de", tokenizer=odd).tokenizer.tgt_lang == "de"


def test_hub_fingerprint_follows_the_cached_commit(hub_cache):
    from discotest.models.hf_models import model_fingerprint

    assert model_fingerprint("org/mt") == "hub:org/mt@abc123"
    assert model_fingerprint("org/other") == "hub:org/other@main"  # not cached: the name and branch


def test_real_m2m100_tokenizer_and_model(tmp_path):
    """A tiny M2M100 with the real tokenizer class: family from disk, __en__ on the source, __de__ forced first."""
    from tests.support.tiny_marian import build_tiny_m2m100

    folder = build_tiny_m2m100(tmp_path / "m2m")
    translator = make_translator(str(folder), "de", beam=2, max_length=8, use_cache=False, quiet=True)
    assert translator.family == "m2m100" and translator.codes.forced_bos == "__de__"
    forced = translator.generation_kwargs()["forced_bos_token_id"]
    assert forced == translator.tokenizer.convert_tokens_to_ids("__de__") != translator.tokenizer.unk_token_id
    out = translator.translate(["he took a bath .", "they were tired ."])
    assert len(out) == 2 and translator.translated == 2
    enc = translator.tokenizer(["he took a bath ."], return_tensors="pt")
    assert translator.tokenizer.convert_ids_to_tokens(enc["input_ids"][0])[0] == "__en__"
    generated = translator.model.generate(**enc, num_beams=1, max_new_tokens=3, **translator.generation_kwargs())
    assert int(generated[0][1]) == forced  # decoder start, then the target language token
    with pytest.raises(InputError, match="unknown language code 'xx' for m2m100"):
        make_translator(str(folder), "xx")


# -- tiny mBART-50 and NLLB with their real tokenizers (fixtures in conftest.py) ----------------------------------


@pytest.mark.parametrize(
    ("fam", "model_class", "src_code", "tgt_code"),
    [("mbart50", "MBartForConditionalGeneration", "en_XX", "de_DE"),
     ("nllb", "M2M100ForConditionalGeneration", "eng_Latn", "deu_Latn")],
)
def test_real_mbart50_and_nllb_translate_with_their_codes(request, tmp_path, monkeypatch, fam, model_class, src_code,
                                                          tgt_code):
    """`discotest translate -l de` with a tiny mBART-50 / NLLB and its real tokenizer: the family comes from the
    saved folder, the source code is set on the tokenizer and the target code is forced as the first generated token.
    """
    import transformers

    folder = request.getfixturevalue(f"tiny_{fam}")
    assert family_of_dir(folder) == fam  # tokenizer_config.json names MBart50Tokenizer / NllbTokenizer
    calls = []  # (generate's keyword arguments, its output), spied on the model class the CLI loads
    cls = getattr(transformers, model_class)
    real = cls.generate

    def spy(self, **kwargs):
        out = real(self, **kwargs)
        calls.append((kwargs, out))
        return out

    monkeypatch.setattr(cls, "generate", spy)
    src = tmp_path / "en.txt"
    src.write_text("he took a bath when he got home .\nthey were tired .\n")
    out = tmp_path / "out.de"
    assert main(["translate", "-i", str(src), "-l", "de", "-m", str(folder), "-o", str(out), "-q", "--beam", "2",
                 "--max-length", "6"]) == 0
    assert len(out.read_text("utf-8").splitlines()) == 2 and len(calls) == 1  # one batch of the two sentences
    kwargs, generated = calls[0]
    translator = make_translator(str(folder), "de")
    tok = translator.tokenizer
    code = tok.convert_tokens_to_ids(tgt_code)
    assert code != tok.unk_token_id and kwargs["forced_bos_token_id"] == code and kwargs["num_beams"] == 2
    for ids, mask in zip(kwargs["input_ids"].tolist(), kwargs["attention_mask"].tolist()):
        tokens = tok.convert_ids_to_tokens(ids[:sum(mask)])  # right-padded batch: the real tokens
        # both tokenizers (NLLB without legacy_behaviour, the Transformers default) put the source language code
        # first and </s> last; the pieces in between are real SentencePiece pieces, not <unk>
        assert tokens[0] == src_code and tokens[-1] == "</s>" and "<unk>" not in tokens
    # generation starts from decoder_start_token_id (</s>, as in the real checkpoints), then the forced target code
    assert [tok.convert_ids_to_tokens(row[:2]) for row in generated.tolist()] == [["</s>", tgt_code]] * 2
    assert translator.family == fam and (translator.codes.src, translator.codes.forced_bos) == (src_code, tgt_code)
