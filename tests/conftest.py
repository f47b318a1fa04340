"""Tests read third-party data from ../shared/data (the registry's layout) through DISCOTEST_DATA."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

if "DISCOTEST_DATA" not in os.environ and SHARED_DATA.is_dir():
    os.environ["DISCOTEST_DATA"] = str(SHARED_DATA)

# Trained alignment models (one per suite and language, ~10 s each to train), the compiled german-nouns lexicon (7 s)
# and the other entries of discotest.cache.NAMESPACE_ENV are shared by every test of the session, whatever cache a
# test gives itself: they depend on the data and the code alone. The tests of the
# model's own caching set a folder of their own.
# Under pytest-xdist the workers share one folder (named by the run's id): a model one worker is training, the other
# waits for (cache.making) instead of training it too.
# The folder is removed when the process that made it ends its session (the controller under xdist: the workers it
# starts inherit the folder through the environment); a folder given in DISCOTEST_MODELS is the user's and is kept.
_OWN_MODELS: Path | None = None
if "DISCOTEST_MODELS" not in os.environ:
    _run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if _run:
        _models = Path(tempfile.gettempdir()) / f"discotest-test-models-{_run}"
        _models.mkdir(exist_ok=True)
        os.environ["DISCOTEST_MODELS"] = str(_models)
    else:
        _OWN_MODELS = Path(tempfile.mkdtemp(prefix="discotest-test-models-"))
        os.environ["DISCOTEST_MODELS"] = str(_OWN_MODELS)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's models folder (hundreds of MB) that this process made."""
    if _OWN_MODELS is not None and "PYTEST_XDIST_WORKER" not in os.environ:
        shutil.rmtree(_OWN_MODELS, ignore_errors=True)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not beside the repository")
    return SHARED_DATA


# Tiny randomly initialised models with their real tokenizers, built offline (tests/support/tiny_marian.py); shared by
# the translation and the contrastive-scoring tests.
@pytest.fixture(scope="session")
def tiny_marian(tmp_path_factory):
    """A tiny random Marian model (a module that needs another shape defines its own ``tiny_marian``)."""
    from tests.support.tiny_marian import build_tiny_marian

    return build_tiny_marian(tmp_path_factory.mktemp("tiny-marian"))


@pytest.fixture(scope="session")
def tiny_mbart50(tmp_path_factory):
    from tests.support.tiny_marian import build_tiny_mbart50

    return build_tiny_mbart50(tmp_path_factory.mktemp("tiny-mbart50"))


@pytest.fixture(scope="session")
def tiny_nllb(tmp_path_factory):
    from tests.support.tiny_marian import build_tiny_nllb

    return build_tiny_nllb(tmp_path_factory.mktemp("tiny-nllb"))


@pytest.fixture
def hub_cache(tmp_path, monkeypatch) -> Path:
    """A Hugging Face cache of the test's own holding one snapshot of ``org/mt`` (commit ``abc123``): what the cache
    looks like after a download, without the network."""
    import huggingface_hub.constants

    repo = tmp_path / "hub" / "models--org--mt"
    (repo / "snapshots" / "abc123").mkdir(parents=True)
    (repo / "snapshots" / "abc123" / "config.json").write_text("{}")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    return tmp_path / "hub"


@pytest.fixture(scope="session")
def tiny_llms(tmp_path_factory, shared_data) -> dict[str, Path]:
    """A tiny random Qwen3, Llama 3.1 and Gemma 3 with their real tokenizers (tests/support/tiny_llm.py), by family."""
    from tests.support.tiny_llm import FAMILIES, build_tiny_llm

    return {family: build_tiny_llm(family, shared_data / "llm_tokenizers", tmp_path_factory.mktemp(f"tiny-{family}"))
            for family in FAMILIES}


@pytest.fixture(scope="session")
def tiny_llms_loaded(tiny_llms) -> dict[str, tuple]:
    """(model, tokenizer) of each tiny LLM, loaded once per session (tests hand them to scorers and translators)."""
    from discotest.models.hf_models import load_causal_lm, load_tokenizer

    return {family: (load_causal_lm(str(path), quiet=True), load_tokenizer(str(path)))
            for family, path in tiny_llms.items()}


@pytest.fixture(scope="session")
def small_llama_server(shared_data, tmp_path_factory) -> Iterator[str]:
    """The real llama.cpp server (the serve-test extra) on a tiny Llama 3.1 whose real tokenizer is cut to its first
    512 tokens (tests/support/tiny_llm.py ``small_vocabulary``), served as ``tiny-llama3_1``; its base URL. For the
    tests of orchestration (resume, retries, request counts): llama-cpp-python sorts the whole vocabulary in Python
    for every echoed token (~0.7 s a token at 128k); the tokenizer-family tests serve the full tokenizers."""
    pytest.importorskip("gguf")
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] (the serve-test extra) is missing")
    from tests.support.served import serve_gguf
    from tests.support.tiny_gguf import write_tiny_gguf
    from tests.support.tiny_llm import build_tiny_llm, small_vocabulary

    folder = tmp_path_factory.mktemp("gguf-small-llama3_1")
    tokenizer = small_vocabulary("llama3_1", shared_data / "llm_tokenizers", folder / "tokenizers")
    model = build_tiny_llm("llama3_1", tokenizer.parent, folder / "model")
    with serve_gguf(write_tiny_gguf(model, folder / "tiny.f32.gguf"), "tiny-llama3_1", folder) as url:
        yield url
