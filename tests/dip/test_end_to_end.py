"""mine → run → rank on a hand-made WMT-layout pair (exact expectations) and on a slice of real WMT22 de-en.

The pronoun scorer and coherence model are test doubles with the interfaces of
``discotest.dip.pronoun_scorer`` and ``discotest.dip.coherence``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.dip import run as api
from tests.support.cli_helpers import one_result, valid_report
from tests.support.wmt_fakes import BAD, GOOD, REF, write_pair

pytest.importorskip("spacy")

class LengthScorer:
    """Pronoun scorer double: shorter sentences are more plausible (score = −characters)."""

    name = "length"

    def __init__(self) -> None:
        self.calls = 0

    def signature(self) -> str:
        return "length-double"

    def score(self, contexts: Sequence[Sequence[str]], sentences: Sequence[str]) -> list[float]:
        self.calls += 1
        assert len(contexts) == len(sentences)
        return [-float(len(s)) for s in sentences]


class WordCoherence:
    """Coherence double: a document scores its number of distinct words."""

    def signature(self) -> str:
        return "words-double"

    def score_documents(self, docs: Sequence[Sequence[str]]) -> list[float]:
        return [float(len({w for s in doc for w in s.split()})) for doc in docs]


@pytest.fixture
def synthetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return write_pair(monkeypatch, tmp_path / "data", {"Good": GOOD, "Bad": BAD})


def test_mine_exact_items(synthetic: Path, tmp_path: Path) -> None:
    manifest = api.mine("wmt22", "de-en", tmp_path / "t", coherence_model=WordCoherence(), data_dir=synthetic)
    # lexical: "car" 3x in the d1 block, Bad has it 2x; connectives: then, because (line 3), and (line 5);
    # anaphora: her -> him (line 2); coherence: ceil(30% of 2 documents) = 1
    assert manifest["counts"] == {"lexical": 1, "connectives": 3, "anaphora": 1, "coherence": 1}
    assert manifest["systems_mined"] == ["Bad", "Good"] and manifest["holdout"] is None
    _, tests = api.read_tests(tmp_path / "t")
    lex = tests["lexical"][0]
    assert (lex["doc_id"], lex["sentences"], lex["lemma"], lex["ref_count"]) == ("d1", [0, 1, 2, 3], "car", 3)
    assert [(c["connective"], c["sentences"], c["missed_by"]) for c in tests["connectives"]] == [
        ("then", [3], ["Bad"]), ("because", [3], ["Bad"]), ("and", [5], ["Bad"])]
    ana = tests["anaphora"][0]
    assert (ana["sentences"], ana["pronoun"], ana["variants"]) == ([0, 1, 2], "her", {"Bad": "him"})
    assert all(item["reason"] for items in tests.values() for item in items)


def test_run_scores_a_new_system(synthetic: Path, tmp_path: Path) -> None:
    api.mine("wmt22", "de-en", tmp_path / "t", coherence_model=WordCoherence(), data_dir=synthetic)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(BAD) + "\n", "utf-8")
    report = api.score(tmp_path / "t", bad, pronoun_scorer=LengthScorer(), coherence_model=WordCoherence(),
                       data_dir=synthetic)
    s = report.scores
    assert s["lexical"].value == 0.0 and s["lexical"].verdicts[0]["miss"] == "other_word"
    assert s["lexical"].verdicts[0]["other_word"] == "vehicle"
    assert s["connectives"].summary["accuracy %"] == 0.0 and s["connectives"].summary["ANY %"] == 0.0
    # Eq. 1 with score = −len: score(ref) − score(sys) = len(sys) − len(ref) = 0 ("him"/"her" same length)
    assert s["anaphora"].summary["differs"] == 1.0 and s["anaphora"].value == 0.0
    good = tmp_path / "good.txt"
    good.write_text("\n".join(GOOD) + "\n", "utf-8")
    s = api.score(tmp_path / "t", good, pronoun_scorer=LengthScorer(), data_dir=synthetic).scores
    assert s["lexical"].value == 100.0 and s["connectives"].summary["ANY %"] == 100.0
    assert s["anaphora"].summary["differs"] == 0.0 and "coherence" not in s  # no model given: not scored


def test_anaphora_sum_uses_each_side_in_its_context(synthetic: Path, tmp_path: Path, monkeypatch) -> None:
    # "him" -> "them" makes the system sentence one character longer: Σ(ref − sys) = −len(ref) + len(sys) = 1
    worse = list(BAD)
    worse[2] = "He saw them yesterday."
    data = write_pair(monkeypatch, tmp_path / "d2", {"Good": GOOD, "Bad": BAD, "Worse": worse})
    report = api.rank("wmt22", "de-en", phenomena=["anaphora"], pronoun_scorer=LengthScorer(), data_dir=data)
    rows = {r.system: r for r in report.rankings[0].rows}
    assert rows["Worse"].value == 1.0 and rows["Bad"].value == 0.0 and rows["Good"].value == 0.0
    assert report.rankings[0].rows[-1].system == "Worse"  # lower is better


def test_rank_holdout(synthetic: Path) -> None:
    # mined without Bad, nothing is hard for Good: no items, and Bad is flagged as the held-out system
    report = api.rank("wmt22", "de-en", holdout="Bad", phenomena=["lexical", "connectives"], data_dir=synthetic)
    assert report.manifest["systems_mined"] == ["Good"] and report.manifest["counts"] == {"lexical": 0,
                                                                                         "connectives": 0}
    full = api.rank("wmt22", "de-en", phenomena=["lexical", "connectives"], data_dir=synthetic)
    lex = full.rankings[0]
    assert [r.system for r in lex.rows] == ["Good", "Bad"] and lex.rows[0].bleu == pytest.approx(100.0)
    assert lex.rows[0].p_next is not None and lex.rows[1].p_next is None


def test_cli_mine_run_rank_on_real_slice(shared_data: Path, tmp_path: Path, capsys) -> None:
    # 12 documents of WMT22 de-en, 3 systems, the phenomena that need no model
    common = ["--data", "wmt22", "--pair", "de-en", "--max-docs", "12", "--systems", "LT22,Online-A,PROMT",
              "--phenomena", "lexical,connectives", "-q"]
    assert main(["mine", "dip", *common, "-o", str(tmp_path / "t")]) == 0
    manifest = json.loads((tmp_path / "t/manifest.json").read_text())
    assert manifest["documents"] == 12 and manifest["counts"]["lexical"] > 0 and manifest["counts"]["connectives"] > 0
    line = json.loads((tmp_path / "t/connectives.jsonl").read_text().splitlines()[0])
    assert {"id", "doc_id", "sentences", "connective", "sense", "reason"} <= set(line)
    hyp = shared_data / "wmt22_general/txt/system-outputs/generaltest2022.de-en.hyp.Online-B.en"
    details = tmp_path / "details.jsonl"
    assert main(["run", "dip", "--tests", str(tmp_path / "t"), "--input", str(hyp), "--details", str(details),
                 "--format", "json", "-q"]) == 0
    out = one_result(json.dumps(valid_report(capsys.readouterr().out)))
    assert set(out["scores"]) == {"lexical", "connectives"}
    assert len(details.read_text().splitlines()) == sum(manifest["counts"].values())
    # the signature names the registry files read: source and reference (the input is the user's own file)
    assert out["signature"].endswith("|" + _files_field("src", "ref-A"))
    assert main(["rank", "dip", *common, "--holdout", "PROMT", "--bootstrap", "200"]) == 0
    text = capsys.readouterr().out
    assert "PROMT †" in text and "BLEU" in text and "suite:dip|version:wmt22|lang:de-en|ref:A" in text
    assert "|" + _files_field("src", "ref-A", "hyp-LT22", "hyp-Online-A", "hyp-PROMT") + "\n" in text


def _files_field(*parts: str) -> str:
    """The ``files:`` field of a run that read these WMT22 de-en registry files, all pristine."""
    checks = [catalogue.FileCheck(f"wmt22-de-en-{p}", catalogue.get_source(f"wmt22-de-en-{p}").sha256, "ok")
              for p in parts]
    return ":".join(catalogue.data_field(checks))


def test_anaphora_swap_mode_scores_only_the_pronoun(synthetic: Path, tmp_path: Path, monkeypatch) -> None:
    # swap: the reference sentence with "him" for "her" -> "He saw him yesterday." in the reference's context;
    # with score = −len both sides have 21 characters: Σ = 0; "them" adds one character: Σ = 1
    worse = list(GOOD)
    worse[2] = "Yesterday, he saw them."  # rephrased: "them" still aligned to "her" via the anchor "saw"
    data = write_pair(monkeypatch, tmp_path / "d3", {"Good": GOOD, "Worse": worse, "Bad": BAD})
    scorer = LengthScorer()
    report = api.rank("wmt22", "de-en", phenomena=["anaphora"], pronoun_scorer=scorer, data_dir=data,
                      anaphora_mode="swap")
    rows = {r.system: r for r in report.rankings[0].rows}
    assert rows["Worse"].value == 1.0 and rows["Bad"].value == 0.0
    assert "+swap" in report.signature.format()


def test_swap_keeps_case() -> None:
    from discotest.dip.parse import parse
    from discotest.dip.score import swap_pronoun

    sent = "I said she left."
    ref = {0: parse([sent])[0]}
    assert swap_pronoun(sent, ref, {"sentences": [0], "token": 2}, "he") == "I said he left."
    assert swap_pronoun(sent, ref, {"sentences": [0], "token": 0}, "you") == "You said she left."
    assert swap_pronoun("She saw me.", {0: parse(["She saw me."])[0]}, {"sentences": [0], "token": 2}, "i") == \
        "She saw I."


def test_rank_cli_json_and_details(synthetic: Path, tmp_path: Path, capsys) -> None:
    details = tmp_path / "rank.jsonl"
    assert main(["rank", "dip", "--pair", "de-en", "--data-dir", str(synthetic), "--phenomena", "lexical,connectives",
                 "--format", "json", "--details", str(details), "-q"]) == 0
    doc = valid_report(capsys.readouterr().out)  # one result per system, the rankings as aggregates
    assert {r["system"] for r in doc["results"]} == {"Good", "Bad"} and doc["results"][0]["family"] == "dip"
    out = doc["aggregates"]
    conn = next(r for r in out["rankings"] if r["phenomenon"] == "connectives")
    # Good keeps then/because/and: 100% accuracy and ANY; Bad drops all three
    assert [(r["system"], r["score"], r["extra"]) for r in conn["rows"]] == [("Good", 100.0, 100.0), ("Bad", 0.0, 0.0)]
    rows = [json.loads(line) for line in details.read_text().splitlines()]
    # one verdict per item and system: (1 lexical + 3 connectives) x 2 systems
    assert len(rows) == 8 and {r["system"] for r in rows} == {"Good", "Bad"}


def test_empty_translations_are_valid_and_miss_everything(synthetic: Path, tmp_path: Path) -> None:
    # an empty line is an empty translation: nothing produced, so every item is missed (omission), no crash
    api.mine("wmt22", "de-en", tmp_path / "t", phenomena=["lexical", "connectives", "anaphora"], data_dir=synthetic)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n" * len(REF), "utf-8")
    s = api.score(tmp_path / "t", empty, pronoun_scorer=LengthScorer(), data_dir=synthetic).scores
    assert s["lexical"].value == 0.0 and s["lexical"].verdicts[0]["miss"] == "omission"
    assert s["connectives"].summary["ANY %"] == 0.0
    assert s["anaphora"].summary["differs"] == 0.0  # no pronoun at the aligned place: not a different pronoun


def test_coherence_mining_keeps_the_lowest_relative_documents() -> None:
    from discotest.dip.documents import Document, PairData
    from discotest.dip.mine import mine_coherence

    # 4 two-line documents; the double scores a document by its first word's number; the system is far below the
    # reference only in d3 -> ceil(0.3 * 4) = 2 documents: d3 (−9) and then d1 (−1)
    ref = ["5 a", "x", "5 b", "x", "9 c", "x", "1 d", "x"]
    sys = ["4 a", "x", "5 b", "x", "0 c", "x", "1 d", "x"]

    class FirstNumber:
        def signature(self) -> str:
            return "first-number"

        def score_documents(self, docs):
            return [float(doc[0].split()[0]) for doc in docs]

    docs = [Document(f"d{k}", 2 * k - 2, 2 * k) for k in range(1, 5)]
    pair = PairData("wmt22", "de-en", "A", ref, ref, {"S": sys}, [d.doc_id for d in docs for _ in d.lines], docs)
    items = mine_coherence(pair, ["S"], FirstNumber())
    assert [i["doc_id"] for i in items] == ["d1", "d3"] and items[1]["ref_score"] == 9.0


def test_rank_cli_html_page(synthetic: Path, tmp_path: Path) -> None:
    page = tmp_path / "rank.html"
    assert main(["rank", "dip", "--pair", "de-en", "--data-dir", str(synthetic), "--phenomena", "connectives",
                 "--format", "html", "-o", str(page), "-q"]) == 0
    text = page.read_text("utf-8")
    # the summary lists both systems in rank order with the metric, and every item verdict follows
    assert text.startswith("<!DOCTYPE html>") and "DiP ranking wmt22 de-en" in text
    assert text.index("<td>Good</td>") < text.index("<td>Bad</td>") and "accuracy %" in text
    assert text.count("<tr") == 1 + 2 + 1  # summary head + 2 systems, items head; the page's script draws the items
    blob = text.split('id="items-data">', 1)[1].split("</script>", 1)[0]
    assert len(json.loads(blob)["rows"]) == 6  # 3 items × 2 systems


def test_compare_two_systems_on_a_mined_test_set(synthetic: Path, tmp_path: Path, capsys) -> None:
    """``compare dip`` from Python and the CLI: Good keeps the reference's lemma and connectives, Bad misses them.
    Good's file words four of its seven lines otherwise: the reference itself is refused as --input (a copy)."""
    import discotest

    api.mine("wmt22", "de-en", tmp_path / "t", phenomena=["lexical", "connectives"], data_dir=synthetic)
    reworded = {"The car was red.": "The car looked red.", "She washed the car.": "She cleaned the car.",
                "He saw her yesterday.": "He met her yesterday.", "Anna met Tom.": "Anna saw Tom."}
    files = []
    for name, lines in (("good.txt", [reworded.get(line, line) for line in GOOD]), ("bad.txt", BAD)):
        files.append(tmp_path / name)
        files[-1].write_text("\n".join(lines) + "\n", "utf-8")
    report = discotest.compare("dip", tests=str(tmp_path / "t"), input=[str(f) for f in files], data_dir=str(synthetic),
                               quiet=True)
    metrics = {m.metric: m for m in report.comparisons[0].metrics}
    assert (metrics["lexical consistency %"].score_a, metrics["lexical consistency %"].score_b) == (100.0, 0.0)
    assert metrics["connectives accuracy %"].sign.wins_a == 3 and metrics["connectives accuracy %"].sign.wins_b == 0
    assert main(["compare", "dip", "--tests", str(tmp_path / "t"), "--input", str(files[0]), "--input",
                 str(files[1]), "--data-dir", str(synthetic), "--format", "json", "-q"]) == 0
    doc = valid_report(capsys.readouterr().out)
    assert [m["metric"] for m in doc["comparisons"][0]["metrics"]] == list(metrics)


def test_html_items_show_the_sentences_with_the_deciding_words_marked(synthetic: Path, tmp_path: Path) -> None:
    """Each item of the page carries the reference and system text; the marks sit on the words the verdict read."""
    api.mine("wmt22", "de-en", tmp_path / "t", coherence_model=WordCoherence(), data_dir=synthetic)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(BAD) + "\n", "utf-8")
    result = api.score(tmp_path / "t", bad, pronoun_scorer=LengthScorer(), data_dir=synthetic)

    def marked(row) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for m in row.marks:
            out.setdefault(m.field, []).append((row.fields[m.field][m.start:m.end], m.kind))
        return out

    rows = {(r.fields["phenomenon"], r.key): r for r in result.item_rows()}
    lexical = rows["lexical", "lexical-00000"]
    # the block is the d1 document: "car" three times in the reference, twice in Bad, which says "vehicle" once
    assert lexical.fields["reference"].startswith("The car was red. ⏎ She washed the car.")
    assert marked(lexical) == {"reference": [("car", "ref")] * 3,
                               "output": [("car", "same"), ("vehicle", "diff"), ("car", "same")]}
    # "because" of line 3 (the second connective there): Bad has no connective, only the reference side is marked
    because = rows["connectives", "connectives-00001"]
    assert because.fields["output"] == "The car broke down, it was old."
    assert marked(because) == {"reference": [("because", "ref")]}
    # her -> him, the two previous lines of the document as context on each side
    her = rows["anaphora", "anaphora-00000"]
    assert her.fields["context"] == "The car was red. ⏎ She washed the car."
    assert her.fields["output context"] == "The car was red. ⏎ She washed the vehicle."
    assert marked(her) == {"reference": [("her", "ref")], "output": [("him", "diff")]}
    # the JSON and --details stay the paper's verdicts: no sentence text there
    assert "reference" not in result.details()[0]


def test_connective_detector_version_in_manifest_and_signature(synthetic: Path, tmp_path: Path) -> None:
    # the detector's version travels with the mined items: a test set mined with other connective rules or
    # senses is refused by `run dip` (scoring re-detects the reference's connectives) instead of scored wrongly
    from discotest.dip.connectives import DETECTOR_VERSION
    from discotest.errors import InputError

    manifest = api.mine("wmt22", "de-en", tmp_path / "t", phenomena=["connectives"], data_dir=synthetic)
    assert manifest["connectives_detector"] == DETECTOR_VERSION
    good = tmp_path / "good.txt"
    good.write_text("\n".join(GOOD) + "\n", "utf-8")
    result = api.score(tmp_path / "t", good, data_dir=synthetic)
    assert f"connectives:{DETECTOR_VERSION}" in str(result.signature)
    old = json.loads((tmp_path / "t/manifest.json").read_text("utf-8"))
    del old["connectives_detector"]  # as written before the detector had a version
    (tmp_path / "t/manifest.json").write_text(json.dumps(old), "utf-8")
    with pytest.raises(InputError, match="connectives-v1"):
        api.score(tmp_path / "t", good, data_dir=synthetic)
