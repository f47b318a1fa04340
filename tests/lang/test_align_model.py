"""The alignment model trained once and decoding every pair (lang.align.model): a pair's links depend on the pair and
the model alone, a read-back model aligns as the trained one, and the cache keeps it."""

from __future__ import annotations

import pytest

from discotest import cache
from discotest.lang.align import make_aligner
from discotest.lang.align import model as model_module
from discotest.lang.align.model import AlignmentModel

# a corpus where the sampler has real choices (as in test_align's seed test): a difference in what the model saw
# or how it was read back shows as other links
WORDS_EN = ["the", "a", "doctor", "nurse", "came", "left", "saw", "met", "friend", "teacher"]
WORDS_DE = ["der", "ein", "Arzt", "Pflegerin", "kam", "ging", "sah", "traf", "Freund", "Lehrer"]
PAIRS = [([WORDS_EN[i] for i in idx], [WORDS_DE[(i + k) % 10] for i in reversed(idx)])
         for k in range(300) for idx in [[(k * 7 + j * 3) % 10 for j in range(4 + k % 3)]]]


@pytest.fixture(autouse=True)
def private_caches(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.setenv("DISCOTEST_MODELS", str(tmp_path / "models"))
    monkeypatch.setattr(model_module, "_extracted", {})


def _model(processes: int = 2, training=lambda: PAIRS, identity: str = "test") -> AlignmentModel:
    return AlignmentModel(make_aligner(processes=processes), "test-corpus", identity, training,
                          code=cache.code_key("lang/align"))


def test_decoding_the_training_text_gives_the_links_of_training_on_it():
    """The model written to disk and read back decodes its own training text exactly as the aligner that trains on
    that text and aligns it (what --align-train input does): a read-back model loses nothing."""
    assert _model().align(PAIRS) == make_aligner().align(PAIRS)


def test_a_pair_gets_the_same_links_alone_and_in_company():
    model = _model()
    together = model.align(PAIRS)
    assert [model.align([pair])[0] for pair in PAIRS[40:60]] == together[40:60]
    assert model.align(PAIRS[::-1]) == together[::-1]


def test_here_and_in_child_processes_give_the_same_links():
    assert _model(processes=1).align(PAIRS[:50]) == _model(processes=2).align(PAIRS[:50])


def test_decode_processes_begun_before_their_pairs_give_the_links_of_a_decode_begun_with_them():
    """``warm_up`` starts Thot's two decode processes, which load the model while the caller still reads its text;
    the next ``start`` sends them its pairs: the links of a decode started with its pairs. ``cool_down`` ends
    processes no ``start`` used; one process here, or a model still to train, starts none."""
    model = _model()
    model.warm_up()
    assert model._early is None  # not trained yet: ``start`` trains it
    expected = model.align(PAIRS[:60])
    model.warm_up()
    children = [child.process for child in model._early.children]
    assert len(children) == 2 and all(child.poll() is None for child in children)
    assert model.start(PAIRS[:60])() == expected and model._early is None
    assert all(child.returncode == 0 for child in children)
    model.warm_up()
    unused = [child.process for child in model._early.children]
    model.cool_down()
    assert model._early is None and all(child.returncode is not None for child in unused)
    here = _model(processes=1)
    here.warm_up()
    assert here._early is None and here.align(PAIRS[:60]) == expected


def test_a_decode_process_given_no_pairs_ends_without_a_word():
    """The child's side of ``start_decode``: it loads the model on its header and, stdin closed with no pairs, ends
    at once with status 0 and nothing written."""
    import marshal
    import subprocess
    import sys

    from discotest.engine import child_env
    from discotest.lang.align.thot_aligner import CHILD

    model = _model()
    model.align(PAIRS[:5])
    header = {"settings": model.aligner.settings(),
              "request": {"task": "decode", "prefix": str(model.folder() / "model"), "direction": "fwd"}}
    done = subprocess.run([sys.executable, "-c", CHILD], env=child_env(), input=marshal.dumps(header),
                          capture_output=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_unseen_words_and_empty_sides_are_decoded():
    links = _model().align([(["the", "surgeon", "came"], ["der", "Chirurg", "kam"]), (["the", "nurse"], [])])
    assert (0, 0) in links[0] and (2, 2) in links[0]
    assert links[1] == frozenset()


def test_the_model_is_trained_once_and_read_back_from_the_cache(monkeypatch):
    first = _model()
    links = first.align(PAIRS[:30])
    assert cache.entry_path(model_module.NAMESPACE, first.key, ".tar.gz").is_file()
    monkeypatch.setattr(model_module, "_extracted", {})  # a new process: only the cache entry is left

    def no_training():
        raise AssertionError("the cached model was trained again")

    again = _model(training=no_training)
    assert again.cached() and again.align(PAIRS[:30]) == links
    assert again.signature() == first.signature() and first.data[:10] in first.signature()


def _train_holding_the_lock(cache_dir: str, models_dir: str, ready, proceed) -> None:
    """Another process training the same model: it holds the lock, says so, waits for the word, then trains."""
    import os

    os.environ[cache.ENV_VAR], os.environ["DISCOTEST_MODELS"] = cache_dir, models_dir
    model = _model(processes=1)
    with cache.making(model_module.NAMESPACE, model.key, ".tar.gz"):
        ready.set()
        proceed.wait(60)
        model.folder()


def test_a_model_another_process_is_training_is_waited_for_not_trained_again(tmp_path):
    """Two processes sharing DISCOTEST_MODELS (two runs, or test workers) train a model once: the second waits for the
    first's lock and reads the stored model (no lock: it would have trained while the first still held it)."""
    import multiprocessing
    import os

    context = multiprocessing.get_context("spawn")
    ready, proceed = context.Event(), context.Event()
    other = context.Process(target=_train_holding_the_lock, args=(os.environ[cache.ENV_VAR],
                                                                  os.environ["DISCOTEST_MODELS"], ready, proceed))
    other.start()
    try:
        assert ready.wait(60)
        proceed.set()

        def no_training():
            raise AssertionError("the model another process was training was trained again")

        waiting = _model(training=no_training)
        assert waiting.align(PAIRS[:30]) == _model().align(PAIRS[:30])
    finally:
        proceed.set()
        other.join(60)
    assert other.exitcode == 0


def test_another_training_text_is_another_key_and_signature():
    assert _model(identity="a").signature() != _model(identity="b").signature()


def test_a_damaged_model_entry_is_retrained(capsys, monkeypatch):
    first = _model()
    links = first.align(PAIRS[:30])
    path = cache.entry_path(model_module.NAMESPACE, first.key, ".tar.gz")
    path.write_bytes(path.read_bytes()[:-100])  # truncated: its header no longer matches
    monkeypatch.setattr(model_module, "_extracted", {})
    assert _model().align(PAIRS[:30]) == links
    assert "is damaged; recomputing" in capsys.readouterr().err


def test_models_live_in_their_own_folder_when_one_is_set(tmp_path):
    model = _model()
    model.folder()
    assert (tmp_path / "models" / model_module.NAMESPACE).is_dir()
    assert not (tmp_path / "cache" / model_module.NAMESPACE).exists()


def _edit(monkeypatch, edited: str) -> None:
    """As if the package file ``edited`` changed: every code key that covers it changes."""
    real = cache.code_key
    monkeypatch.setattr(cache, "code_key", lambda *parts: f"edited {edited}" if not parts or any(
        edited == part or edited.startswith(part + "/") for part in parts) else real(*parts))


def test_the_signature_names_the_data_not_the_code(monkeypatch):
    """An edit to the code that shapes a model retrains it but leaves the signature alone (it names the recipe and
    the data; the discotest version stands for the code, as for every other field)."""
    before = _model()
    _edit(monkeypatch, "lang/align/thot_aligner.py")
    after = _model()
    assert after.key != before.key and after.signature() == before.signature()


def _reference_models() -> dict[str, AlignmentModel]:
    """The reference-trained models of MiTTenS (out of English) and MT-GenEval, on two made-up items each."""
    from discotest.gender.mittens.free import reference_model as mittens_model
    from discotest.gender.mittens.suite import MittensItem
    from discotest.gender.mt_geneval.reference_free import reference_model as geneval_model
    from discotest.gender.mt_geneval.suite import GenEvalItem

    mittens = [MittensItem(k, "de", "female", "set", f"She is a doctor {k}.", "", f"Sie ist Ärztin {k}.")
               for k in range(2)]
    geneval = [GenEvalItem(k, "female", f"She is a nurse {k}.", f"Sie ist Krankenschwester {k}.",
                           f"Er ist Krankenpfleger {k}.") for k in range(2)]
    return {"mittens": mittens_model(mittens, "de"), "mt-geneval": geneval_model(geneval, "de", "test-recipe")}


@pytest.mark.parametrize(("edited", "retrained"), [
    ("cards/build.py", False), ("gender/judge.py", False), ("lang/morph/de.py", False),
    ("lang/align/thot_aligner.py", True), ("gender/mittens/free.py", True),
    ("gender/mt_geneval/reference_free.py", True)])
def test_the_reference_models_are_keyed_on_the_code_that_shapes_them(monkeypatch, edited, retrained):
    """MiTTenS's and MT-GenEval's reference models are retrained by an edit to the aligner or to their own training
    recipe (each its own module), not by one elsewhere (issue 39: a release used to retrain every model)."""
    before = {name: model.key for name, model in _reference_models().items()}
    _edit(monkeypatch, edited)
    after = {name: model.key for name, model in _reference_models().items()}
    own = {"gender/mittens/free.py": "mittens", "gender/mt_geneval/reference_free.py": "mt-geneval"}
    for name in before:
        expected = retrained and own.get(edited, name) == name
        assert (after[name] != before[name]) == expected, (name, edited)


@pytest.mark.parametrize(("edited", "retrained"), [
    ("cards/build.py", False), ("gender/judge.py", False),  # shape no model
    ("lang/align/thot_aligner.py", True), ("lang/tokenize.py", True),  # the aligner and the tokeniser
    ("gender/text.py", True),  # the caller's modules that select the training text
])
def test_a_model_keyed_on_its_code_is_retrained_only_by_an_edit_to_that_code(monkeypatch, edited, retrained):
    def model():
        code = cache.code_key("gender/text.py")
        return AlignmentModel(make_aligner(), "test-corpus", "test", lambda: PAIRS, code=code)

    monkeypatch.setattr(cache, "code_key", lambda *parts: "|".join(parts))
    before = model()
    _edit(monkeypatch, edited)
    assert (model().key != before.key) == retrained


def test_the_winomt_model_key_holds_the_text_selection_not_the_verdict_rules(shared_data, monkeypatch):
    from discotest.gender.run import RunOptions, language_aligner

    def key() -> str:
        return language_aligner("ar", RunOptions(data_dir=str(shared_data))).key

    before = key()
    real = cache.code_key
    for edited, retrained in [("gender/judge.py", False), ("cards/build.py", False), ("lang/morph/ar.py", False),
                              ("gender/published.py", True), ("data/translations.py", True),
                              ("lang/align/model.py", True)]:
        _edit(monkeypatch, edited)
        assert (key() != before) == retrained, edited
        monkeypatch.setattr(cache, "code_key", real)


def test_data_prepare_builds_the_model_a_run_then_decodes_with(shared_data, capsys):
    """``discotest data prepare SUITE`` trains what a first run would train; the run then finds it ready and its
    signature names that model; a second prepare finds it ready; a suite whose runs train nothing says so."""
    import json

    from discotest.cli import main

    argv = ["--data-dir", str(shared_data), "-q", "data", "prepare", "winomt-demo", "--lang", "de"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "winomt-demo de: alignment model model:winomt-demo-current-de:demo@" in first and "trained" in first
    assert "language check: py3langid model ready" in first
    recipe = first.split("alignment model ")[1].split()[0]
    assert main(argv) == 0 and f"{recipe} ready" in capsys.readouterr().out
    assert main(["--data-dir", str(shared_data), "-q", "run", "winomt-demo", "--lang", "de", "--system", "demo",
                 "--format", "json"]) == 0
    signature = json.loads(capsys.readouterr().out)["results"][0]["signature"]
    assert f"align_text:{recipe}" in signature
    assert main(["--data-dir", str(shared_data), "data", "prepare", "jazp"]) == 2
    assert "jazp: nothing to prepare" in capsys.readouterr().err


def test_training_says_what_it_does_and_about_how_long_unless_quiet(capsys):
    """One line on stderr while a model trains, through the bars' helper (``progress.note``): not under -q, but under
    a shown bar whose work runs quiet (a cold card's rows: "a minute without a word", issue 50), above the bar."""
    from discotest.lang.align.model import TRAIN_SECONDS_PER_PAIR
    from discotest.progress import progress_bar, quiet_scope

    with quiet_scope(True):
        _model(identity="quiet").folder()
    assert "training" not in capsys.readouterr().err
    _model().folder()
    err = capsys.readouterr().err
    said = f"training the alignment model test-corpus (about {max(1, round(len(PAIRS) * TRAIN_SECONDS_PER_PAIR))} s, " \
        "once; cached)"
    assert said in err
    _model().folder()  # trained: nothing to say
    assert "training" not in capsys.readouterr().err
    with progress_bar("card", quiet=False), quiet_scope(True):  # the card's bar over a row's quiet run
        _model(identity="under a card").folder()
    assert said in capsys.readouterr().err
    with progress_bar("card", quiet=True), quiet_scope(True):  # card -q
        _model(identity="quiet card").folder()
    assert "training" not in capsys.readouterr().err


def test_training_runs_beside_the_caller_and_its_processes_decode_as_the_read_back_model(monkeypatch):
    """A first ``start`` returns while the model trains (nothing stored yet: the caller works meanwhile); the training
    processes decode its pairs with the model read back from the files they wrote, so the links are those a later
    decode of the stored model gives; a ``start`` while it trains waits for it and trains nothing again."""
    calls = []

    def counted():
        calls.append(1)
        return PAIRS

    model = _model(training=counted)
    first = model.start(PAIRS[:30])
    assert not cache.entry_path(model_module.NAMESPACE, model.key, ".tar.gz").is_file()
    second = model.start(PAIRS[30:40])
    links, more = first(), second()
    assert calls == [1] and model.cached()
    monkeypatch.setattr(model_module, "_extracted", {})  # a new process: only the stored model is left

    def no_training():
        raise AssertionError("the stored model was trained again")

    assert _model(training=no_training).align(PAIRS[:40]) == links + more


def test_links_read_from_the_alignment_lists_are_the_matrix_links():
    """``best_links`` reads a directional alignment from ``to_list`` (one source position per target word); the
    matrix itself (``to_numpy``) holds exactly those links, with unseen words and a one-word side too; a reverse
    model's links turned round are the forward pair's."""
    import thot.alignment as thot

    from discotest.lang.align.thot_child import best_links, link_sets, swapped

    aligner = make_aligner(processes=1)
    trained = aligner._train(PAIRS)
    pairs = [*PAIRS[:80], (["the", "surgeon", "came"], ["der", "Chirurg", "kam", "heute"]), (["nurse"], ["Pflegerin"])]
    best = trained.get_best_alignments([s for s, _ in pairs], [t for _, t in pairs])
    from_matrix = [{(int(i), int(j)) for i, j in zip(*matrix.to_numpy().nonzero())} for _, matrix in best]
    assert link_sets(best_links(trained, pairs)) == from_matrix
    assert sum(map(len, from_matrix)) > len(pairs) and isinstance(trained, thot.EflomalAlignmentModel)
    turned = link_sets(best_links(trained, swapped(pairs), reverse=True))
    assert turned == [{(t, s) for s, t in links} for links in link_sets(best_links(trained, swapped(pairs)))]


def test_the_winomt_training_text_is_the_word_pairs_of_the_published_bitexts(shared_data):
    """The model's training text is read without making tokens (``PublishedText.pairs``), and it is exactly the pairs
    of the tokenised published outputs: the model is the one the tokenised text trained."""
    from discotest.gender.run import RunOptions, published_text

    options = RunOptions(data_dir=str(shared_data))
    text = published_text("uk", options)
    assert text is not None and len(text.systems) > 1
    pairs = text.pairs(options)
    assert pairs == [pair for bitext in text.bitexts(options) for pair in bitext.pairs]
    assert len(pairs) > 10000


def test_the_training_line_says_the_measured_seconds_of_a_model_of_that_name(capsys, monkeypatch):
    """A model measured by bench/cards/card_costs.py (lang/training.json, by the name the line prints) is said at its
    measured seconds, not at the pairs' count times the per-pair figure."""
    from discotest.lang.align import model as align_model

    monkeypatch.setattr(align_model, "_training_figures", lambda: {"test-corpus": 42.4})
    _model(identity="measured").folder()
    assert "training the alignment model test-corpus (about 42 s, once; cached)" in capsys.readouterr().err
