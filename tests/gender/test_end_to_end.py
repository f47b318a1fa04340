"""The whole pipeline on real data: published WinoMT outputs from ../shared/data and the bundled demo."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.gender.judge import GenderVerdict, score_gender
from tests.support.cli_helpers import one_result, results_of

ROOT = Path(__file__).resolve().parents[2]
DETAIL_KEYS = {
    "index", "source", "translation", "entity", "target_entity", "predicted_gender", "gold_gender", "correct", "reason",
}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))


def test_demo_suite_scores_match_the_hand_count(capsys):
    """The demo system gets rows 3, 5 and 11 wrong in each language (see bundled ABOUT.md)."""
    assert main(["-q", "run", "winomt-demo", "--lang", "all", "--system", "all", "--format", "json"]) == 0
    results = results_of(capsys.readouterr().out)
    assert sorted(r["lang"] for r in results) == ["de", "es", "fr"]
    for r in results:
        s = r["scores"]
        assert s["n"] == 16
        assert s["accuracy"] == pytest.approx(81.25), r
        assert s["accuracy_pro"] == pytest.approx(100.0) and s["accuracy_anti"] == pytest.approx(62.5)
        assert s["delta_s"] == pytest.approx(37.5)


def test_google_german_json_and_details(capsys, tmp_path, shared_data):
    details = tmp_path / "items.jsonl"
    code = main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "de", "--system", "google",
                 "--format", "json", "--details", str(details)])
    captured = capsys.readouterr()
    assert code == 0
    result = one_result(captured.out)
    # the current WinoMT has two rows (2120, 2121) that the 2019 outputs do not contain
    assert result["unmatched_rows"] == "2120-2121"
    assert "2 suite rows have no translation" in captured.err
    assert result["scores"]["n"] == 3886
    for key in ("suite:winomt", "lang:de", "system:google", "aligner:thot-eflomal-", "analyser:"):
        assert key in result["signature"]
    rows = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 3886 and {r["index"] for r in rows} == set(range(3888)) - {2120, 2121}
    for row in rows:
        assert row.keys() >= DETAIL_KEYS
        assert row["correct"] == (row["predicted_gender"] == row["gold_gender"])
        assert row["predicted_gender"] in ("male", "female", "neutral", "unknown")
    # the scores in the report are the scores of the details
    verdicts = [GenderVerdict(**{k: v for k, v in r.items() if k not in ("system", "lang")}) for r in rows]
    assert score_gender(verdicts).to_json() == result["scores"]
    # row 0: "The developer argued with the designer because she …" -> Google: "Die Entwicklerin …"
    assert rows[0]["target_entity"] == ["Entwicklerin"] and rows[0]["predicted_gender"] == "female"
    # real analysers read most entities: far fewer unknowns than items
    assert result["scores"]["unknown"] < 10


def test_2019_suite_version_covers_every_row(capsys, shared_data):
    code = main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "es", "--system", "bing",
                 "--suite-version", "2019", "--format", "json"])
    result = one_result(capsys.readouterr().out)
    assert code == 0 and result["unmatched"] == 0 and result["scores"]["n"] == 3888


def test_user_file_in_every_format_gives_the_same_scores(capsys, tmp_path, shared_data):
    # Spanish: the 2019 Spanish alignment model is the one BUG's runs use anyway (a French 2019 model was trained for
    # this test alone)
    published = (shared_data / "mt_gender/translations/bing/en-es.txt").read_text(encoding="utf-8").splitlines()
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(line.split(" ||| ", 1)[1] for line in published) + "\n", encoding="utf-8")
    jsonl = tmp_path / "hyp.jsonl"
    jsonl.write_text("\n".join(json.dumps({"source": s, "translation": t})
                               for s, t in (line.split(" ||| ", 1) for line in published)), encoding="utf-8")
    scores = []
    for path in (plain, jsonl):
        code = main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "es", "--input", str(path),
                     "--suite-version", "2019", "--format", "json"])
        assert code == 0
        scores.append(one_result(capsys.readouterr().out)["scores"])
    main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "es", "--system", "bing",
          "--suite-version", "2019", "--format", "json"])
    scores.append(one_result(capsys.readouterr().out)["scores"])
    assert scores[0] == scores[1] == scores[2]


def test_every_published_output_matches_its_suite_rows(shared_data):
    """All 33 published outputs (31 commercial + sota de, fr; aws has no uk): each matches every WinoMT row but the two
    fixed in 2021 (rows 2120-2121). Reading is what a run does first; the whole pipeline over all 33 pairs is
    bench/speed/bench_winomt.py (minutes cold), the 8-language table on one system below."""
    from discotest.gender.published import published_translations
    from discotest.gender.run import planned_pairs
    from discotest.gender.suites import load_gender_suite

    pairs = planned_pairs("winomt", "all", "all")
    assert sum(map(len, pairs.values())) == 33 and "aws" not in pairs["uk"] and "sota" in pairs["de"]
    items = load_gender_suite("winomt", "current", shared_data)
    for lang, systems in pairs.items():
        for system in systems:
            matched = published_translations(system, lang, items, shared_data).by_row
            assert len(matched) == 3886 and {2120, 2121}.isdisjoint(matched), (system, lang)


@pytest.mark.slow
def test_all_languages_in_one_table(capsys, tmp_path, shared_data):
    details = tmp_path / "items.jsonl"
    code = main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "all", "--system", "google",
                 "--details", str(details)])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["google"]]
    assert [r[1] for r in rows] == ["ar", "de", "es", "fr", "he", "it", "ru", "uk"]
    assert all(int(r[2]) == 3886 for r in rows)  # n: every matched row evaluated
    assert out.count("discotest:0.1.0|suite:winomt") == 8  # one signature per language
    # every per-item verdict as recorded by bench/release/verdict_identity.py (hashed the same way: a pair's detail
    # lines joined by newlines); a change that moves one must re-record there, on purpose
    recorded = json.loads((ROOT / "bench" / "figures" / "winomt_verdicts.json").read_text())["noun"]
    lines: dict[str, list[str]] = {}
    for line in details.read_text(encoding="utf-8").splitlines():
        lines.setdefault(json.loads(line)["lang"], []).append(line)
    assert sorted(lines) == [r[1] for r in rows]
    for lang, pair_lines in lines.items():
        digest = hashlib.sha256("\n".join(pair_lines).encode()).hexdigest()
        assert digest == recorded[f"{lang}/google"]["details_sha256"], lang
    # each language's JSON result as recorded too (hashed as verdict_identity hashes it), from the run again in its
    # cache: every verdict read back from it, the same details; Ray's whole suites are two of
    # these languages (tests/engine/test_engine.py), so each language's recorded result is checked here
    again = tmp_path / "again.jsonl"
    code = main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "all", "--system", "google",
                 "--format", "json", "--details", str(again)])
    results = results_of(capsys.readouterr().out)
    assert code == 0 and again.read_bytes() == details.read_bytes()
    assert [r["lang"] for r in results] == [r[1] for r in rows]
    for result in results:
        digest = hashlib.sha256(json.dumps([result], sort_keys=True).encode()).hexdigest()
        assert digest == recorded[f"{result['lang']}/google"]["result_sha256"], result["lang"]


def test_bug_gold_with_a_hand_translated_file(capsys, tmp_path, shared_data):
    """12 BUG rows translated into Spanish by hand (tests/fixtures/bug_es_sample.txt); 3 give the entity
    the wrong gender on purpose: rows 36 ("El autor" for a woman), 221 ("El niño" for a girl) and 243
    ("la enfermera" for a man). The other 1616 gold rows have no translation and are reported."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "bug_es_sample.txt"
    details = tmp_path / "bug.jsonl"
    code = main(["--data-dir", str(shared_data), "-q", "run", "bug", "--lang", "es", "--input", str(fixture),
                 "--format", "json", "--details", str(details)])
    captured = capsys.readouterr()
    result = one_result(captured.out)
    assert code == 0 and result["scores"]["n"] == 12 and result["unmatched"] == 1628 - 12
    # the 1616 rows as ranges around the 12 translated ones (rows 17, 36, 37, 39 …)
    assert result["unmatched_rows"] == ("0-16,18-35,38,40-113,115-117,119-170,173-220,222-225,227-242,244-247,"
                                        "249-582,584-1628")
    # BUG has no published outputs: its sentences are decoded with WinoMT's Spanish model
    assert "align_text:model:winomt-2019-es:" in result["signature"]
    rows = {r["index"]: r for r in map(json.loads, details.read_text(encoding="utf-8").splitlines())}
    assert {i for i, r in rows.items() if not r["correct"]} == {36, 221, 243}
    assert rows[171]["target_entity"] == ["autora"] and rows[171]["predicted_gender"] == "female"
    assert result["scores"]["accuracy"] == pytest.approx(75.0)
    assert result["scores"]["accuracy_pro"] is not None  # stereotype labels joined from the annotated CSV


def test_bug_loader_skips_the_empty_row_and_joins_stereotypes(shared_data):
    from discotest.gender.bug import load_bug

    items = load_bug(shared_data)
    assert len(items) == 1628 and 583 not in {i.index for i in items}
    tags = [i.stereotype for i in items]
    assert tags.count("pro") > 700 and tags.count("anti") > 350


def test_a_row_scores_the_same_alone_and_inside_its_file(capsys, tmp_path, shared_data):
    """Align once (issue 23): 50 rows given alone get per-item details identical to the same rows inside google's whole
    German output, because every sentence is decoded with the language's alignment model (before, the aligner trained
    on the file, and an unchanged row 1476 changed verdict when 30 other lines were edited); ``compare`` judges both
    systems with that one model."""
    from collections import Counter

    from discotest.gender.published import published_translations
    from discotest.gender.winomt import load_winomt

    items = load_winomt("current", shared_data)
    by_row = published_translations("google", "de", items, shared_data).by_row
    once = Counter(item.sentence for item in items)
    chosen = [item for item in items if item.index in by_row and once[item.sentence] == 1][1440:1490]
    assert 1476 in {item.index for item in chosen}
    part = tmp_path / "part.txt"
    part.write_text("".join(f"{item.sentence} ||| {by_row[item.index]}\n" for item in chosen), encoding="utf-8")
    details = {}
    for name, given in (("whole", ["--system", "google"]), ("part", ["--input", str(part)])):
        out = tmp_path / f"{name}.jsonl"
        assert main(["--data-dir", str(shared_data), "-q", "run", "winomt", "--lang", "de", *given,
                     "--details", str(out)]) == 0
        details[name] = [{k: v for k, v in json.loads(line).items() if k != "system"}
                         for line in out.read_text(encoding="utf-8").splitlines()]
    wanted = {item.index for item in chosen}
    assert len(details["part"]) == 50
    assert details["part"] == [d for d in details["whole"] if d["index"] in wanted]
    capsys.readouterr()
    assert main(["--data-dir", str(shared_data), "-q", "compare", "winomt", "--lang", "de", "--system", "google",
                 "--input", str(part), "--format", "json", "--bootstrap", "10"]) == 0
    signatures = re.findall(r"align_text:[^|\"]+", capsys.readouterr().out)
    assert len(signatures) >= 2 and len(set(signatures)) == 1 and "model:winomt-current-de" in signatures[0]
