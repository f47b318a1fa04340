"""Issue 40 item 3: a suite read from the user's own file is signed ``version:file@<sha8>`` (its content), not the
registered suite's version with ``files:none`` (Wino-X and the contrastive JSONL suites alike); a local model is named
by its folder in scoring signatures as in translation signatures (tests/models/test_hf_scorer.py)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from discotest.models.translator import model_label
from tests.support.cli_helpers import one_result, run_cli
from tests.support.files import jazp_file, write

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winox"


def _sha8(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:8]


def test_winox_with_a_suite_file_signs_its_content(capsys, tmp_path):
    suite = tmp_path / "mine.jsonl"
    shutil.copy(FIXTURES / "en_fr_test.jsonl", suite)
    signatures = []
    for _ in range(2):
        code, out, err = run_cli(capsys, "-q", "run", "winox", "--lang", "fr", "--input",
                                 str(FIXTURES / "system.fr.txt"), "--suite-file", str(suite), "-f", "json")
        assert code == 0, err
        signatures.append(one_result(out)["signature"])
        suite.write_text(suite.read_text("utf-8").replace("\n", "\n\n", 1), "utf-8")  # another file, same items
    assert f"|version:file@{_sha8(FIXTURES / 'en_fr_test.jsonl')}|" in signatures[0]
    assert "|version:file@" in signatures[1] and signatures[0] != signatures[1]


def test_a_contrastive_suite_file_signs_its_content(capsys, tmp_path):
    suite = jazp_file(tmp_path)
    scores = write(tmp_path, "sc.txt", "1\n0\n")
    code, out, err = run_cli(capsys, "-q", "run", "jazp", "--suite-file", suite, "--scores", scores, "-f", "json")
    assert code == 0, err
    assert f"|version:file@{_sha8(suite)}|" in one_result(out)["signature"]
    code, out, err = run_cli(capsys, "-q", "run", "jazp", "--scores", write(tmp_path, "all.txt", "1\n0\n" * 44),
                             "-f", "json")  # the bundled suite keeps its version
    assert code == 0, err
    assert "|version:current|" in one_result(out)["signature"]


def test_a_local_model_is_named_by_its_folder(tmp_path):
    assert model_label(str(tmp_path)) == tmp_path.name
    assert model_label("Helsinki-NLP/opus-mt-en-de") == "Helsinki-NLP/opus-mt-en-de"  # a hub name as given
