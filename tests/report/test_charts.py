"""The charts and tables a reader meets first: value axes with round ticks and their unit, a one-system ΔG bar that
does not fill the width, missing system×language results said, long system names not cut, DiP's "differs" counts
as integers, the CTXPRO text not repeating itself, the mZPRT form codes explained, and the figure files (SVG, PDF,
PNG) opened with real readers."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest

from discotest.report.charts import BAR_W, CHAR_W, PNG_SCALE, Chart, ChartPoint, axis_range, nice_ticks, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def _texts(root: ElementTree.Element, css: str | None = None) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text") if css is None or t.get("class") == css]


def _bars(root: ElementTree.Element) -> list[ElementTree.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]


def test_nice_ticks_cover_the_data_with_round_steps():
    assert nice_ticks(0, 21.7) == [0, 5, 10, 15, 20, 25]
    assert nice_ticks(-12.5, 3) == [-15, -10, -5, 0, 5]
    assert nice_ticks(0, 0.37) == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert nice_ticks(0, 1234)[-1] >= 1234


def test_accuracy_axis_has_ticks_and_its_unit():
    root = _parse(render_svg(Chart("Accuracy", (ChartPoint("de", "google", 56.36),))))
    assert _texts(root, "axis") == ["0%", "20%", "40%", "60%", "80%", "100%", "percent"]
    assert len([line for line in root.iter(f"{SVG}line")]) >= 2 * 6  # a grid line and a tick mark per value


def test_one_system_delta_g_does_not_fill_the_width():
    chart = Chart("ΔG", (ChartPoint("de", "google", 21.7),), unit="pp")
    ticks = axis_range(chart)
    assert ticks[0] == -ticks[-1] and ticks[-1] > 21.7  # symmetric around zero, beyond the bar
    (bar,) = _bars(_parse(render_svg(chart)))
    assert float(bar.get("width")) < 0.5 * BAR_W
    assert "percentage points" in _texts(_parse(render_svg(chart)), "axis")


def test_a_missing_result_is_said_and_long_names_fit():
    name = "1. st2022.de-en.hyp.Online-B.en"
    chart = Chart("Accuracy", (ChartPoint("de", "google", 60.0), ChartPoint("de", "bing", 70.0),
                               ChartPoint("fr", "bing", 55.0), ChartPoint(name, "bing", 50.0)))
    svg = render_svg(chart)
    root = _parse(svg)
    assert "google: no result" in _texts(root, "none")  # google has no French output
    label = next(t for t in root.iter(f"{SVG}text") if t.text == name)
    assert float(label.get("x")) - CHAR_W * len(name) >= 0  # the whole name is inside the picture


def test_standalone_svg_carries_title_note_and_fonts():
    svg = render_svg(Chart("AZPT by form · GR", (ChartPoint("S", "base", 45.2, "n=970"),), note="S subject"),
                     standalone=True)
    root = _parse(svg)
    assert root.find(f"{SVG}style") is not None
    assert "AZPT by form · GR" in _texts(root, "title") and "S subject" in _texts(root, "note")


def test_dip_differs_is_a_count():
    from discotest.dip.score import EXTRA
    from discotest.report.html import format_value

    label, fn = EXTRA["anaphora"]
    value = fn(np.array([-1.5, 4.0]))
    assert label == "differs" and isinstance(value, int) and format_value("differs", value) == "4"


def test_ctxpro_text_has_no_second_copy_of_its_phenomena(shared_data):
    import discotest

    text = discotest.run("ctxpro-auxiliary-en-de-test", system="deepl-contexts", data_dir=str(shared_data),
                         quiet=True).render("text")
    assert " by phenomenon" in text and " by pair" not in text
    assert len(re.findall(r"^\s+DO\.ELL\s", text, re.M)) == 1


def _winox_figures(folder, *extra: str) -> int:
    from discotest.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "winox"
    return main(["-q", "run", "winox", "--lang", "fr", "--input", str(fixtures / "system.fr.txt"), "--suite-file",
                 str(fixtures / "en_fr_test.jsonl"), "--figures", str(folder), "-b", *extra])


def test_figures_are_written_as_svg_pdf_and_png_files_with_their_numbers(tmp_path):
    from PIL import Image
    from pypdf import PdfReader

    folder = tmp_path / "figs"
    assert _winox_figures(folder) == 0
    stems = ["winox-wino-x-pronoun-accuracy-by-language", "winox-wino-x-verdicts-items"]
    assert sorted(p.name for p in folder.iterdir()) == [f"{s}.{ext}" for s in stems for ext in ("pdf", "png", "svg")]
    accuracy = _parse((folder / f"{stems[0]}.svg").read_text("utf-8"))
    assert "50.0%" in _texts(accuracy, "v") and "Wino-X pronoun accuracy by language" in _texts(accuracy, "title")
    assert _texts(accuracy, "axis")[:2] == ["0%", "20%"]
    verdicts = _parse((folder / f"{stems[1]}.svg").read_text("utf-8"))
    assert {"5", "3", "1"} <= set(_texts(verdicts, "v"))  # items per verdict, whole numbers
    width, height = int(accuracy.get("width")), int(accuracy.get("height"))
    with Image.open(folder / f"{stems[0]}.png") as png:  # a real decoder, every pixel read
        png.load()
        assert png.size == (width * PNG_SCALE, height * PNG_SCALE)
        colours = {colour for _, colour in png.convert("RGB").getcolors(1 << 20)}
    assert (0x4E, 0x79, 0xA7) in colours and (255, 255, 255) in colours  # the bar and the background drawn
    pdf = PdfReader(folder / f"{stems[0]}.pdf", strict=True)
    assert len(pdf.pages) == 1
    assert [float(v) for v in pdf.pages[0].mediabox] == [0, 0, width * 0.75, height * 0.75]  # 96 px = 72 pt
    text = pdf.pages[0].extract_text()
    assert "Wino-X pronoun accuracy by language" in text and "50.0%" in text
    assert pdf.metadata.title == "Wino-X pronoun accuracy by language"
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert all(b"CreationDate" not in first[f"{s}.pdf"] for s in stems)  # no clock in the file
    assert _winox_figures(folder) == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first  # the same bytes for the same inputs


def test_figures_format_picks_the_files_and_a_missing_cairosvg_is_one_line(tmp_path, monkeypatch, capsys):
    from discotest.cli import main

    assert _winox_figures(tmp_path / "svg", "--figures-format", "svg") == 0
    assert {p.suffix for p in (tmp_path / "svg").iterdir()} == {".svg"}
    assert _winox_figures(tmp_path / "pdf", "--figures-format", "PDF") == 0
    assert {p.suffix for p in (tmp_path / "pdf").iterdir()} == {".pdf"}
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        _winox_figures(tmp_path / "bad", "--figures-format", "svg,eps")
    assert exit_.value.code == 2 and "svg, pdf, png" in capsys.readouterr().err
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "winox"
    assert main(["-q", "run", "winox", "--lang", "fr", "--input", str(fixtures / "system.fr.txt"), "--suite-file",
                 str(fixtures / "en_fr_test.jsonl"), "--figures-format", "pdf", "-b"]) == 2  # no --figures DIR
    assert "give --figures DIR" in capsys.readouterr().err
    for name in ("cairosvg", "cairosvg.parser", "cairosvg.surface"):
        monkeypatch.setitem(sys.modules, name, None)  # as if the extra were not installed: import fails
    assert _winox_figures(tmp_path / "none", "--figures-format", "svg,png") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'discotest[figures]'" in err[0], err
    assert not (tmp_path / "none").exists()  # said before the work, nothing written
    assert _winox_figures(tmp_path / "svg2", "--figures-format", "svg") == 0  # SVG alone needs no extra


def test_mzprt_form_codes_are_explained_everywhere(shared_data):
    import discotest

    report = discotest.run("mzprt", domain="GR", system="base_tgt", data_dir=str(shared_data), quiet=True)
    legend = "S subject, O object, Pa possessive adjective, P possessive pronoun, R reflexive"
    assert legend in report.render("text") and legend in report.render("html")  # table note and summary note
    assert report.to_json()["results"][0]["form_names"]["Pa"] == "possessive adjective"
    assert legend in report.render("markdown")
    form_chart = next(c for c in report.all_charts() if c.title.startswith("AZPT by form"))
    assert legend in form_chart.note
