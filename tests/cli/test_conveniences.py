"""What users reach for first: ``compare`` with one system of each kind given as plain values, ``validate sample`` on
their own translations, "did you mean" for mistyped suite, system (gender, contrastive, DiP), language, domain and DiP
reference names, and language codes in any case."""

from __future__ import annotations

import csv
from pathlib import Path

import discotest
from discotest.cli import main
from discotest.errors import did_you_mean

DEMO = Path(discotest.__file__).parent / "data" / "bundled" / "winomt-demo" / "translations" / "demo"


def test_compare_takes_one_system_and_one_file_as_single_values(shared_data):
    google = shared_data / "mt_gender" / "translations" / "google" / "en-de.txt"
    report = discotest.compare("winomt", lang="de", system="google", input=str(google), data_dir=str(shared_data),
                               quiet=True)
    a, b = report.results
    assert (a.system, b.system) == ("google", "en-de.txt") and a.scores.accuracy == b.scores.accuracy
    assert report.comparisons[0].changed_items() == []  # the same translations: nothing changed


def test_did_you_mean(capsys):
    assert did_you_mean("winomtt", ["winomt", "bug"]) == " (did you mean 'winomt'?)"
    assert did_you_mean("gr", ["QA", "GR"]) == " (did you mean 'GR'?)"
    assert did_you_mean("zzz", ["winomt"]) == ""
    for args, hint in ((["run", "winomtt", "--lang", "de", "--system", "google"], "did you mean 'winomt'?"),
                       (["run", "winomt", "--lang", "de", "--system", "gogle"], "did you mean 'google'?"),
                       (["run", "winomt", "--lang", "dee", "--system", "google"], "did you mean 'de'?"),
                       (["run", "mzprt", "--domain", "GRR", "--system", "base_tgt"], "did you mean 'GR'?"),
                       (["run", "ctxpro-auxiliary-en-de-test", "--system", "deepl-sentence"],
                        "did you mean 'deepl-sentences'?"),
                       (["run", "dip", "--pair", "de-en", "--systems", "Online-BB"], "did you mean 'Online-B'?"),
                       (["rank", "dip", "--pair", "de-en", "--holdout", "online-b"], "did you mean 'Online-B'?"),
                       (["run", "dip", "--pair", "de-en", "--ref", "b"], "did you mean 'B'?"),
                       (["run", "dip", "--data", "wmt2", "--pair", "de-en"], "did you mean 'wmt22'?")):
        assert main(["-q", *args]) == 2
        err = capsys.readouterr().err
        assert hint in err and len(err.strip().splitlines()) == 1, err


def test_language_codes_in_any_case(capsys):
    assert main(["-q", "run", "winomt-demo", "--lang", "DE", "--system", "demo", "-b"]) == 0
    upper = capsys.readouterr().out
    assert main(["-q", "run", "winomt-demo", "--lang", "de", "--system", "demo", "-b"]) == 0
    assert upper == capsys.readouterr().out == "81.25\n"
    assert discotest.run("winomt-demo", lang="Es", system="demo", quiet=True)[0].lang == "es"


def test_validate_sample_of_your_own_translations(tmp_path, capsys):
    path = tmp_path / "sample.csv"
    assert main(["-q", "validate", "sample", "--suite", "winomt-demo", "--lang", "DE", "--input",
                 str(DEMO / "en-de.txt"), "-n", "5", "-o", str(path)]) == 0
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 5 and {r["system"] for r in rows} == {"en-de.txt"} and {r["lang"] for r in rows} == {"de"}
    capsys.readouterr()
    assert main(["-q", "validate", "sample", "--suite", "winomt-demo", "--lang", "de", "-o", str(path)]) == 2
    assert "give --system (published outputs) or --input" in capsys.readouterr().err
    assert main(["-q", "validate", "sample", "--suite", "winomt-demo", "--lang", "de,es", "--input",
                 str(DEMO / "en-de.txt"), "-o", str(path)]) == 2
    assert "needs exactly one --lang" in capsys.readouterr().err
