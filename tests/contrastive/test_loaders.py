"""Every contrastive loader on the real files in ../shared/data, and the file formats on files written here."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from discotest.contrastive.ctxpro import contains_expected, last_sentence
from discotest.contrastive.jsonl import load_contrapro, load_jsonl, load_winox_mt
from discotest.contrastive.suites import contrastive_suites, load_suite
from discotest.errors import InputError

VOITA = {  # suite: (items, candidates = lines of their scoring_data/*.dst)
    "voita-deixis": (2500, 5000), "voita-deixis-dev": (500, 1000), "voita-lexcohesion": (1500, 3428),
    "voita-lexcohesion-dev": (500, 1124), "voita-ellipsis-vp": (500, 5203), "voita-ellipsis-infl": (500, 2520),
}


@pytest.mark.parametrize("suite", sorted(VOITA))
def test_voita_sets(shared_data, suite):
    items = load_suite(suite, shared_data)
    n_items, n_cands = VOITA[suite]
    assert len(items) == n_items and sum(len(i.candidates) for i in items) == n_cands
    assert all(len(i.src_context) == 3 and len(i.tgt_context) == 3 for i in items)
    # the flattened scoring file lists candidates in the same order (last _eos piece = our candidate)
    name = {"voita-deixis": "deixis_test", "voita-deixis-dev": "deixis_dev", "voita-lexcohesion": "lex_cohesion_test",
            "voita-lexcohesion-dev": "lex_cohesion_dev"}.get(suite, suite.replace("voita-", "").replace("-", "_"))
    dst = (shared_data / f"voita_consistency/consistency_testsets/scoring_data/{name}.dst").read_text("utf-8")
    flat = [line.split(" _eos ")[-1] for line in dst.splitlines()]
    assert flat == [c for i in items for c in i.candidates]


def test_voita_deixis_distances(shared_data):
    items = load_suite("voita-deixis", shared_data)
    assert Counter(i.distance for i in items) == {1: 820, 2: 846, 3: 834}
    first = items[0]
    assert first.correct == "Тебя не ловили ." and first.incorrect == ("Вас не ловили .",)
    assert first.src == "You 've never been caught ." and first.pair == "тебя>вас"


def test_bawden_sets(shared_data):
    anaphora = load_suite("bawden-anaphora", shared_data)
    lexical = load_suite("bawden-lexical", shared_data)
    assert len(anaphora) == 200 and len(lexical) == 200
    assert sum(i.meta["semi_correct"] for i in anaphora) == 100
    flat = (shared_data / "bawden_discourse/test-sets/anaphora.current.fr").read_text("utf-8").splitlines()
    assert flat == [c for i in anaphora for c in i.candidates]
    prev = (shared_data / "bawden_discourse/test-sets/anaphora.prev.fr").read_text("utf-8").splitlines()
    assert prev[::2] == [i.tgt_context[0] for i in anaphora]
    flat = (shared_data / "bawden_discourse/test-sets/lexical_choice.current.fr").read_text("utf-8").splitlines()
    assert flat == [c for i in lexical for c in i.candidates]
    assert anaphora[0].pair == "m.pl:ils>elles" and anaphora[0].distance == 1


def test_scat(shared_data):
    items = load_suite("scat", shared_data)
    assert len(items) == 1000 and len(load_suite("scat-valid", shared_data)) == 145
    first = items[0]
    assert first.src.startswith("It's just they've fallen") and "<p>" not in first.correct
    assert first.incorrect == (first.correct.replace("qu'elles", "qu'ils"),)
    assert sum(not i.meta["changed"] for i in items) <= 5  # a few marked words are not il/elle/ils/elles
    assert sum(1 for i in items if not i.src_context) == 40


def test_ctxpro_sets_present(shared_data):
    suites = [s for s in contrastive_suites() if s.startswith("ctxpro-")]
    assert len(suites) == 10
    sizes = {s: len(load_suite(s, shared_data)) for s in suites}
    assert sizes["ctxpro-auxiliary-en-de-test"] == 3180 and sizes["ctxpro-formality-en-de-dev"] == 9000
    aux = load_suite("ctxpro-auxiliary-en-de-test", shared_data)
    assert aux[0].expected and aux[0].src_context  # inputs give the source context


def test_ctxpro_expected_word_rule():
    assert contains_expected("Ich weiß nicht. Im Camp geht das wie von allein!", "geht")
    assert not contains_expected("Im Camp geht das. Ich weiß nicht.", "geht")  # only the last sentence counts
    assert contains_expected("a <eos> b <eos> Das GEHT, schon.", "geht")
    assert not contains_expected("Sie gehen.", "geh")
    assert last_sentence("Eins. Zwei? Drei!") == "Drei!"


def test_jazp_bundled_suite():
    items = load_suite("jazp")
    assert len(items) >= 40
    assert Counter(i.distance for i in items) == {0: 11, 1: 11, 2: 11, 3: 11}
    assert all(len(i.src_context) == 3 and i.incorrect for i in items)
    assert all(i.correct != i.incorrect[0] for i in items)


def _write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return path


def test_jsonl_errors_name_file_and_line(tmp_path):
    good = {"source": "s", "correct": "a", "incorrect": ["b"]}
    cases = [
        ([good, {"source": "s", "correct": "a"}], "missing field 'incorrect'", 2),
        ([good, {"source": "s", "correct": "a", "incorrect": []}], "empty list", 2),
        (["{not json"], "not valid JSON", 1),
        ([{**good, "distance": -1}], "distance", 1),
        ([{**good, "incorrect": [1]}], "list of strings", 1),
    ]
    for rows, message, line in cases:
        path = _write(tmp_path / "s.jsonl", rows)
        with pytest.raises(InputError, match=message) as err:
            load_jsonl(path)
        assert err.value.line == line and "\n" not in err.value.one_line()


def test_winox_mt_format(tmp_path):
    path = _write(tmp_path / "winox.jsonl", [
        {"qID": "q1", "sentence": "The trophy doesn't fit into the suitcase because it is too large.",
         "translation1": "Die Trophäe passt nicht in den Koffer, weil sie zu groß ist.",
         "translation2": "Die Trophäe passt nicht in den Koffer, weil er zu groß ist.", "answer": 1,
         "pronoun1": "sie", "pronoun2": "er"},
        {"qID": "q2", "sentence": "x", "translation1": "a er", "translation2": "a sie", "answer": 2,
         "pronoun1": "er", "pronoun2": "sie"},
    ])
    items = load_winox_mt(path)
    assert [i.correct_index for i in items] == [0, 1] and [i.pair for i in items] == ["sie>er", "sie>er"]
    _write(path, [{"qID": "q", "sentence": "x", "translation1": "a", "translation2": "b", "answer": 3,
                   "pronoun1": "er", "pronoun2": "sie"}])
    with pytest.raises(InputError, match="answer must be 1 or 2"):
        load_winox_mt(path)
    _write(path, [{"qID": "q", "sentence": "x", "translation1": "a", "translation2": "b", "answer": 1}])
    with pytest.raises(InputError, match="winox.jsonl:1: missing Wino-X field 'pronoun1'"):
        load_winox_mt(path)


def test_contrapro_json_and_context(tmp_path):
    rows = [{"src segment": "I saw it.", "ref segment": "Ich sah sie.", "src pronoun": "it", "ref pronoun": "sie",
             "ante distance": 1, "document id": "d", "segment id": 3,
             "errors": [{"contrastive": "Ich sah ihn.", "replacement": "ihn"}, {"contrastive": "Ich sah es.",
                                                                                "replacement": "es"}]}]
    path = tmp_path / "contrapro.json"
    path.write_text(json.dumps(rows))
    (tmp_path / "c.en").write_text("The lamp broke.\n")
    (tmp_path / "c.de").write_text("Die Lampe ging kaputt.\n")
    items = load_contrapro(path, (tmp_path / "c.en", tmp_path / "c.de"), context_size=1)
    assert items[0].candidates == ("Ich sah sie.", "Ich sah ihn.", "Ich sah es.")
    assert items[0].tgt_context == ("Die Lampe ging kaputt.",) and items[0].pair == "sie>ihn"
    with pytest.raises(InputError, match="expected 2 × 1"):
        load_contrapro(path, (tmp_path / "c.en", tmp_path / "c.de"), context_size=2)


def _opus(tmp_path, docs):
    """A tiny OPUS Moses-format OpenSubtitles2018.de-en: one (de doc, en doc) id pair per line."""
    ids, en, de = [], [], []
    for (de_doc, en_doc), lines in docs:
        for e, d in lines:
            ids.append(f"de/{de_doc}.xml.gz\ten/{en_doc}.xml.gz\t1\t1")
            en.append(e)
            de.append(d)
    prefix = tmp_path / "OpenSubtitles2018.de-en"
    for suffix, lines in (("ids", ids), ("en", en), ("de", de)):
        Path(f"{prefix}.{suffix}").write_text("\n".join(lines) + "\n", "utf-8")
    return prefix


def test_contrapro_context_rebuilt_from_opensubtitles(tmp_path):
    prefix = _opus(tmp_path, [
        (("1999/10/111", "1999/10/222"), [("I bought a lamp.", "Ich kaufte eine Lampe."),
                                          ("It is red.", "Sie ist rot.")]),
        (("2002/20/333", "2002/20/444"), [("Where is the dog?", "Wo ist der Hund?"),
                                          ("Look at the car.", "Schau dir das Auto an."),
                                          ("It is fast.", "Es ist schnell.")]),
    ])
    rows = [  # document ids as ContraPro writes them (the German file), segment ids 1-based within the document
        {"document id": "1999_10_111.de", "segment id": 2, "src segment": "It is red.", "ref segment": "Sie ist rot.",
         "ref pronoun": "Sie", "errors": [{"contrastive": "Er ist rot.", "replacement": "Er"}]},
        {"document id": "2002/20/333", "segment id": 3, "src segment": "It is fast.", "ref segment": "Es ist schnell.",
         "ref pronoun": "Es", "errors": [{"contrastive": "Sie ist schnell.", "replacement": "Sie"}]},
        {"document id": "2002_20_333", "segment id": 1, "src segment": "Where is the dog?",
         "ref segment": "Wo ist der Hund?", "errors": [{"contrastive": "x", "replacement": "x"}]},
    ]
    path = tmp_path / "contrapro.json"
    path.write_text(json.dumps(rows), "utf-8")
    items = load_contrapro(path, context_size=2, opus=prefix)
    # item 0: only one line precedes it in its document, so the older slot is empty (as ContraPro's script does)
    assert items[0].src_context == ("", "I bought a lamp.") and items[0].tgt_context == ("", "Ich kaufte eine Lampe.")
    # item 1: the two previous lines of its own document, never the previous document's
    assert items[1].src_context == ("Where is the dog?", "Look at the car.")
    assert items[2].src_context == ("", "")  # first line of a document: no context
    rows[1]["src segment"] = "It is slow."
    path.write_text(json.dumps(rows), "utf-8")
    with pytest.raises(InputError, match="line 3 of document 2002_20_333 is 'It is fast.'"):
        load_contrapro(path, context_size=1, opus=prefix)
    rows[1]["document id"] = "2010_1_1"
    path.write_text(json.dumps(rows), "utf-8")
    with pytest.raises(InputError, match="1 ContraPro items not found .* document 2010_1_1"):
        load_contrapro(path, context_size=1, opus=prefix)
    Path(f"{prefix}.de").write_text("only one line\n", "utf-8")
    with pytest.raises(InputError, match="OpenSubtitles2018.de-en.de: ends at line 1"):
        load_contrapro(path, context_size=1, opus=prefix)
