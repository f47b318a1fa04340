"""Data directory resolution, clear errors for missing files, verification and checked downloads."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from discotest.data import catalogue
from discotest.errors import InputError


def test_data_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv(catalogue.ENV_VAR, str(tmp_path / "env"))
    assert catalogue.data_dir(tmp_path / "explicit") == tmp_path / "explicit"
    assert catalogue.data_dir() == tmp_path / "env"
    monkeypatch.delenv(catalogue.ENV_VAR)
    assert catalogue.data_dir().name == "data" and "discotest" in str(catalogue.data_dir())


def test_registry_has_the_sources_the_issue_names():
    names = set(catalogue.SOURCES)
    for suite in ("winomt", "winomt-pro", "winomt-anti"):
        assert suite in names and f"{suite}-2019" in names
    assert {"bug-gold", "winomt-sota-de", "winomt-sota-fr", "winomt-aws-ru"} <= names
    assert "winomt-aws-uk" not in names  # Amazon has no Ukrainian output
    published = [n for n in names if n.count("-") == 2 and n.split("-")[1] in ("google", "bing", "aws", "systran")]
    assert len(published) == 31
    for source in catalogue.SOURCES.values():
        # every checksum is pinned in the registry, except Wino-X's, which its publisher does not give
        assert len(source.sha256) == 64 or (source.name.startswith("winox-") and source.sha256 == "")
        assert source.url.startswith("https://") or (source.bundled and source.url == "")


def test_missing_file_names_the_path_and_the_fix(tmp_path):
    with pytest.raises(InputError) as err:
        catalogue.locate("winomt-google-de", tmp_path)
    message = err.value.one_line()
    assert str(tmp_path / "mt_gender/translations/google/en-de.txt") in message
    assert "discotest data fetch winomt-google-de" in message and "\n" not in message


def test_unknown_source():
    with pytest.raises(InputError, match="unknown data source"):
        catalogue.get_source("nope")


def test_verify_on_the_shared_data(shared_data):
    for name in catalogue.SOURCES:
        if name.startswith("winox-"):
            continue  # Wino-X is not in ../shared/data (tests/winox/test_winox.py uses our own files)
        status, path = catalogue.verify(name, shared_data)
        assert status == "ok", (name, path)


def test_verify_detects_a_changed_file(tmp_path):
    source = catalogue.get_source("winomt")
    target = tmp_path / source.path
    target.parent.mkdir(parents=True)
    target.write_text("changed\n")
    assert catalogue.verify("winomt", tmp_path)[0] == "mismatch"
    assert catalogue.verify("winomt-2019", tmp_path)[0] == "missing"


class FakeResponse(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_fetch_checks_the_checksum_and_unpacks(tmp_path, monkeypatch, shared_data):
    source = catalogue.get_source("bug-gold")
    payload = (shared_data / source.path).read_bytes()
    urls = []

    def opener(url, **kwargs):
        urls.append(url)
        return FakeResponse(payload)

    path = catalogue.fetch("bug-gold", tmp_path, opener=opener)
    assert urls == [source.url]
    assert path == tmp_path / source.extract.path and path.is_file()
    assert catalogue.verify("bug-gold", tmp_path)[0] == "ok"
    catalogue.fetch("bug-gold", tmp_path, opener=opener)  # already there: no second download
    assert len(urls) == 1


def test_fetch_refuses_a_corrupt_download(tmp_path):
    def opener(url, **kwargs):
        return FakeResponse(b"not the file")

    with pytest.raises(InputError, match="checksum mismatch"):
        catalogue.fetch("winomt", tmp_path, opener=opener)
    assert not (tmp_path / catalogue.get_source("winomt").path).exists()


def test_fetch_offline_is_a_clear_error(tmp_path):
    def opener(url, **kwargs):
        raise OSError("network is unreachable")

    with pytest.raises(InputError, match="cannot download"):
        catalogue.fetch("winomt", tmp_path, opener=opener)


def test_zip_member_sha_is_recorded(shared_data):
    source = catalogue.get_source("bug-gold")
    with zipfile.ZipFile(shared_data / source.path) as archive:
        member = archive.read(source.extract.member)
    assert hashlib.sha256(member).hexdigest() == source.extract.sha256
    assert Path(source.extract.path).name == source.extract.member
