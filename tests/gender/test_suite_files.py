"""A warm run finds its verdicts by the suite's files without parsing the suite (``locate_gender_suite``): it must
check and record exactly the files that loading the suite does."""

from __future__ import annotations

import pytest

from discotest.data import catalogue
from discotest.errors import InputError
from discotest.gender.suites import load_gender_suite, locate_gender_suite


@pytest.mark.parametrize(("suite", "version", "files"), [("winomt", "current", 3), ("winomt", "2019", 3),
                                                         ("winomt-demo", "current", 0),  # bundled: not recorded
                                                         ("winomt-adj", "current", 2), ("bug", "current", 2)])
def test_locating_records_the_files_loading_reads(shared_data, suite, version, files):
    with catalogue.tracking() as loaded:
        load_gender_suite(suite, version, shared_data)
    with catalogue.tracking() as located:
        locate_gender_suite(suite, version, shared_data)
    assert located == loaded and len(located) == files


def test_a_missing_suite_file_is_the_same_clean_error(tmp_path):
    with pytest.raises(InputError) as loading:
        load_gender_suite("winomt", "current", tmp_path)
    with pytest.raises(InputError) as locating:
        locate_gender_suite("winomt", "current", tmp_path)
    assert locating.value.one_line() == loading.value.one_line()


@pytest.mark.parametrize("version", ["current", "2019"])
def test_each_row_is_tagged_by_the_subset_file_that_holds_it(shared_data, version):
    """``load_winomt``: the main file's rows as ``read_gender_tsv`` reads them, each tagged pro or anti when that
    subset file holds it (same gold, sentence, entity index and entity), else untagged."""
    from dataclasses import replace

    from discotest.gender.winomt import load_winomt, read_gender_tsv, winomt_files

    main_name, subsets = winomt_files("winomt", version)
    tags = {}
    for subset, name in subsets:
        for row in read_gender_tsv(catalogue.locate(name, shared_data)):
            tags[(row.gold, row.sentence, row.entity_index, row.entity.lower())] = subset
    rows = read_gender_tsv(catalogue.locate(main_name, shared_data))
    expected = [replace(r, stereotype=tags.get((r.gold, r.sentence, r.entity_index, r.entity.lower()))) for r in rows]
    items = load_winomt(version, shared_data)
    assert items == expected
    assert {item.stereotype for item in items} == {"pro", "anti", None}
