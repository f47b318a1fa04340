"""Reading WMT pairs into documents on the real WMT21/WMT22 files in ../shared/data, every file through the data
registry: what the registry lists is what the folders hold, and a modified or missing file is refused in one line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from discotest.cli import main
from discotest.data import catalogue
from discotest.data.readers import read_lines
from discotest.dip.documents import DATASETS, blocks, load_pair, pair_paths, system_paths
from discotest.errors import InputError


def _covers_all_lines(pair) -> bool:
    return [i for d in pair.documents for i in d.lines] == list(range(pair.n_lines))


def test_wmt22_de_en(shared_data: Path) -> None:
    pair = load_pair("wmt22", "de-en", root=shared_data)
    # PROVENANCE.md: 1984 lines, 271 documents, 9 systems, references A and B
    assert pair.n_lines == 1984 and len(pair.documents) == 271 and len(pair.systems) == 9
    assert {"Online-A", "LT22", "PROMT"} <= set(pair.systems)
    assert _covers_all_lines(pair)
    assert all(len(lines) == 1984 for lines in pair.systems.values())
    assert sum(len(blocks(d)) for d in pair.documents) > 300
    ref_b = load_pair("wmt22", "de-en", ref="B", root=shared_data, systems=[])
    assert ref_b.reference != pair.reference and ref_b.systems == {}


def test_wmt22_en_de_order_differs_from_de_en(shared_data: Path) -> None:
    # pairs sharing a source keep their own document order: de-en's first document is not en-de's
    de_en = read_lines(shared_data / "wmt22_general/docids/generaltest2022.de-en.docids")
    de_fr = read_lines(shared_data / "wmt22_general/docids/generaltest2022.de-fr.docids")
    assert len(de_en) == len(de_fr) == 1984 and de_en != de_fr


def test_wmt22_zh_en_empty_line_is_a_translation(shared_data: Path) -> None:
    # Online-W has one empty line in zh-en: kept as "", not dropped (the count would no longer match)
    pair = load_pair("wmt22", "zh-en", root=shared_data, systems=["Online-W"])
    assert pair.n_lines == 1875 and pair.systems["Online-W"].count("") == 1


def test_wmt21_ru_en(shared_data: Path) -> None:
    pair = load_pair("wmt21", "ru-en", root=shared_data, max_docs=5)
    # 1000 lines, 107 documents (5 kept by max_docs), 10 systems
    assert pair.n_lines == 1000 and len(pair.documents) == 5 and len(pair.systems) == 10
    assert len(set(pair.doc_ids)) == 107


def test_wmt21_de_en_has_no_doc_ids(shared_data: Path) -> None:
    with pytest.raises(InputError, match=r"no document ids for wmt21 de-en \(pairs with document ids: ja-en, ru-en\)"):
        load_pair("wmt21", "de-en", root=shared_data)
    # training data for the pronoun scorer may do without: the whole file is one document (19 systems, refs A and B)
    pair = load_pair("wmt21", "de-en", ref="B", root=shared_data, need_docids=False)
    assert [(d.doc_id, d.start, d.end) for d in pair.documents] == [("wmt21.de-en", 0, 1000)]
    assert len(pair.systems) == 19 and "docids" not in pair.paths and pair.reference[0] != \
        load_pair("wmt21", "de-en", root=shared_data, systems=[], need_docids=False).reference[0]


def test_english_target_only_and_unknown_pair(shared_data: Path) -> None:
    # what exists is listed from the registry (the data dir is not looked into)
    with pytest.raises(InputError, match="English-target only"):
        load_pair("wmt22", "en-de", root=shared_data)
    with pytest.raises(InputError, match=r"unknown pair fr-en for wmt22 \(X-en pairs: de-en, ja-en, ru-en, zh-en\)$"):
        load_pair("wmt22", "fr-en", root=shared_data)
    with pytest.raises(InputError, match=r"wmt22 ru-en has no reference 'B' \(references: A\)$"):
        load_pair("wmt22", "ru-en", ref="B", root=shared_data)
    with pytest.raises(InputError, match=r"has no system NoSuchSystem \(systems: JDExploreAcademy, LT22, Lan-Bridge, "):
        load_pair("wmt22", "de-en", root=shared_data, systems=["NoSuchSystem"])


# -- the registry's WMT entries --------------------------------------------------------------------------------------


def test_the_registry_lists_what_the_wmt_folders_hold(shared_data: Path) -> None:
    """Every X-en pair's source, references and system outputs in the folders is a registry entry under the
    systematic name, so DiP reads the same files it read when it looked into the folders."""
    for data, (folder, prefix) in DATASETS.items():
        txt = shared_data / folder / "txt"
        for source in sorted((txt / "sources").glob(f"{prefix}.*-en.src.*")):
            pair = source.name.split(".")[1]
            found = {f"{data}-{pair}-src": source}
            found |= {f"{data}-{pair}-ref-{p.name.split('.')[3]}": p
                      for p in (txt / "references").glob(f"{prefix}.{pair}.ref.*.en")}
            head = f"{prefix}.{pair}.hyp."
            found |= {f"{data}-{pair}-hyp-{p.name[len(head):-len('.en')]}": p
                      for p in (txt / "system-outputs").glob(f"{head}*.en")}
            registered = {n for n in catalogue.SOURCES if n.startswith(f"{data}-{pair}-") and not n.endswith("-docids")}
            assert registered == set(found), pair
            for name, path in found.items():
                assert catalogue.get_source(name).path == path.relative_to(shared_data).as_posix()
    assert list(system_paths("wmt22", "de-en", shared_data)) == [
        "JDExploreAcademy", "LT22", "Lan-Bridge", "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y", "PROMT"]


def test_bundled_doc_ids_are_the_helpers_files(shared_data: Path) -> None:
    """Our derived doc ids ship with the package (no upstream URL exists) and are the data helper's files."""
    bundled = [s for s in catalogue.SOURCES.values() if s.name.endswith("-docids")]
    assert sorted(s.name for s in bundled) == ["wmt21-ja-en-docids", "wmt21-ru-en-docids", "wmt22-de-en-docids",
                                               "wmt22-ja-en-docids", "wmt22-ru-en-docids", "wmt22-zh-en-docids"]
    for source in bundled:
        assert source.bundled and source.url == "" and source.kind == "annotations"
        folder, prefix = DATASETS[source.name.split("-")[0]]
        helper = shared_data / folder / "docids" / f"{prefix}.{source.subset}.docids"
        content = catalogue.locate(source.name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == source.sha256 and content == helper.read_bytes()


def test_wmt_files_are_no_runnable_suites(capsys) -> None:
    """DiP's WMT files are corpora, annotations and outputs of one pair: no suite, no published output of a suite."""
    assert not [s for s in catalogue.suites() if s.startswith("wmt")]
    assert catalogue.system_outputs("wmt21-news") == {} == catalogue.system_outputs("wmt22-general")
    assert main(["suites"]) == 0 and "wmt" not in capsys.readouterr().out


# -- integrity: every file DiP reads is held to its pin and recorded --------------------------------------------------


def test_load_pair_records_the_registry_files_it_read(shared_data: Path) -> None:
    with catalogue.tracking() as seen:
        load_pair("wmt22", "de-en", root=shared_data, systems=["LT22", "PROMT"], max_docs=2)
    # the doc ids are part of the package, like every bundled file, not of the data dir
    assert sorted(seen) == ["wmt22-de-en-hyp-LT22", "wmt22-de-en-hyp-PROMT", "wmt22-de-en-ref-A", "wmt22-de-en-src"]
    assert all(c.status == "ok" and c.sha256 == catalogue.get_source(c.name).sha256 for c in seen.values())


@pytest.fixture
def own_data(shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir of the test's own holding WMT22 de-en (links to the shared files), with an empty hash memo."""
    monkeypatch.setenv("DISCOTEST_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(catalogue, "_memo", None)
    monkeypatch.delenv(catalogue.ALLOW_MODIFIED_ENV, raising=False)
    root = tmp_path / "data"
    for source in catalogue.SOURCES.values():
        if source.name.startswith("wmt22-de-en-") and not source.bundled:
            (root / source.path).parent.mkdir(parents=True, exist_ok=True)
            (root / source.path).symlink_to(shared_data / source.path)
    return root


def _replace(root: Path, name: str, old: str, new: str) -> Path:
    """Put an edited copy of a registry file in place of its link."""
    path = root / catalogue.get_source(name).path
    text = path.read_text("utf-8")
    path.unlink()
    path.write_text(text.replace(old, new, 1), "utf-8")
    return path


def test_a_modified_wmt_file_is_refused(own_data: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    path = _replace(own_data, "wmt22-de-en-hyp-PROMT", "the", "teh")
    with pytest.raises(InputError, match=r"'wmt22-de-en-hyp-PROMT' differs from its pinned sha256"):
        load_pair("wmt22", "de-en", root=own_data)
    assert list(load_pair("wmt22", "de-en", root=own_data, systems=["LT22"]).systems) == ["LT22"]  # not read
    argv = ["mine", "dip", "--data", "wmt22", "--pair", "de-en", "--data-dir", str(own_data), "--phenomena",
            "lexical", "-o", str(tmp_path / "t"), "-q"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"discotest: error: {path}: ")
    assert "discotest data verify" in err and "--allow-modified-data" in err
    monkeypatch.setenv(catalogue.ALLOW_MODIFIED_ENV, "1")
    with catalogue.tracking() as seen:
        load_pair("wmt22", "de-en", root=own_data, systems=["PROMT"], max_docs=1)
    own = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
    assert seen["wmt22-de-en-hyp-PROMT"].status == "modified"
    assert catalogue.data_field(seen)[1].endswith(f",modified=wmt22-de-en-hyp-PROMT@{own}")


def test_a_modified_reference_or_source_is_refused(own_data: Path) -> None:
    _replace(own_data, "wmt22-de-en-ref-A", "the", "teh")
    with pytest.raises(InputError, match="'wmt22-de-en-ref-A' differs"):
        pair_paths("wmt22", "de-en", root=own_data)
    assert pair_paths("wmt22", "de-en", ref="B", root=own_data)["reference"].name.endswith(".ref.B.en")
    _replace(own_data, "wmt22-de-en-src", "die", "dei")
    with pytest.raises(InputError, match="'wmt22-de-en-src' differs"):
        pair_paths("wmt22", "de-en", ref="B", root=own_data)


def test_a_missing_file_says_what_to_fetch(own_data: Path, tmp_path: Path) -> None:
    (own_data / catalogue.get_source("wmt22-de-en-hyp-PROMT").path).unlink()
    with pytest.raises(catalogue.MissingDataError, match="discotest data fetch wmt22-de-en-hyp-PROMT"):
        load_pair("wmt22", "de-en", root=own_data)  # every output of the pair is read: none is left out silently
    with pytest.raises(catalogue.MissingDataError, match=r"discotest data fetch wmt21-ru-en-src.*raw\.github"):
        load_pair("wmt21", "ru-en", root=tmp_path / "empty")
