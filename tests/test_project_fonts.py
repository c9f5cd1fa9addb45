"""A project's own fonts (generator/data/typefaces/fonts.py,
generator/data/typefaces/project_fonts.py): a TTF in fonts/ is
named by its file name, embedded in the PDF and drawn in the PNGs; its coverage is checked
(a missing glyph is a pre-flight finding and build refuses it); hostile font files are
refused with messages naming the file and the line that uses it.

The fonts are copies of the Bitstream Vera TTFs ReportLab ships (never a system font)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest
import reportlab
from PIL import ImageChops
from reportlab.pdfbase import pdfmetrics

from generator.core import context, paths
from generator.core import primitives as p
from generator.core.errors import DataError
from generator.data.design.resources import load_resources
from generator.data.files import project
from generator.data.typefaces import fonts, project_fonts
from generator.render.png import render_png
from tests.designer import edit, run
from tests.pdfread import pdf_fonts

VERA = Path(reportlab.__file__).parent / "fonts"


def line_of(file: Path, needle: str) -> int:
    lines = file.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


@pytest.fixture
def fontgame(in_tmp, capsys) -> Path:
    """The starter game with Vera in fonts/ and its theme's title and body fonts set to it
    (the body written in another case than the file: names match without regard to it)."""
    assert run(capsys, "init", "fontgame")[0] == 0
    folder = in_tmp / "fontgame"
    (folder / "fonts").mkdir()
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Vera-Regular.ttf")
    shutil.copy(VERA / "VeraBd.ttf", folder / "fonts" / "Vera-Bold.ttf")
    with (folder / "themes" / "starter.yaml").open("a", encoding="utf-8") as theme:
        theme.write("fonts:\n  title: Vera-Bold\n  body: vera-regular\n")
    return folder


# -- building with a project font -----------------------------------------------------------

@pytest.mark.slow
def test_a_project_font_is_embedded_in_the_pdf_and_its_text_extractable(fontgame, pypdf_text,
                                                                        capsys):
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 0, err
    pdf = fontgame / "output" / "fontgame" / "fontgame.pdf"
    embedded = pdf_fonts(pdf)
    # named by its PostScript name and 16 hex digits of its content's hash (fonts.py)
    for ps in ("BitstreamVeraSans-Bold", "BitstreamVeraSans-Roman"):
        assert any(re.search(rf"\+{ps}-[0-9a-f]{{16}}$", name) for name in embedded), embedded
    text = "\n".join(pypdf_text(pdf, n) for n in range(1, len(pypdf.PdfReader(pdf).pages) + 1))
    for name in ("Dawn", "Eclipse", "Blue Moon"):  # card titles, set in Vera Bold
        assert name in text

    # The same font file gives the same bytes (its PDF name comes from its contents).
    again = fontgame.parent / "again"
    assert run(capsys, "build", "fontgame", "--out", str(again))[0] == 0
    assert (again / "fontgame" / "fontgame.pdf").read_bytes() == pdf.read_bytes()


def test_a_project_font_measures_and_draws_with_its_own_file(fontgame):
    with project.using(project.Project(fontgame)):
        assert fonts.known("Vera-Bold") and fonts.known("vera-bold")
        vera = fonts.text_width_mm("Vera-Bold", "Moving Day", 10)
        pdfmetrics.registerFont(fonts.TTFont("test-vera-bold", str(VERA / "VeraBd.ttf")))
        assert vera == pytest.approx(pdfmetrics.stringWidth("Moving Day", "test-vera-bold", 10)
                                     * fonts.PT_TO_MM)
        assert vera != pytest.approx(fonts.text_width_mm("sans-bold", "Moving Day", 10))
        assert fonts.path("Vera-Bold").path == fontgame / "fonts" / "Vera-Bold.ttf"

        def face(font: str) -> p.Face:
            text = p.Text(((2.0, 10.0, "Moving Day"),), font, 14.0)
            return p.Face(40.0, 15.0, 0.0, (text,))

        own, builtin = (render_png(f, dpi=150, resources=load_resources(f.prims))
                        for f in (face("Vera-Bold"), face("sans-bold")))
    assert own.getextrema() != ((255, 255),) * 3  # something was drawn
    assert ImageChops.difference(own, builtin).getbbox() is not None


def test_verify_lists_the_project_fonts_used_and_their_coverage(fontgame, capsys):
    code, out, _ = run(capsys, "verify", "fontgame")
    assert code == 0, out
    assert re.search(r"font Vera-Bold: fonts/Vera-Bold\.ttf has glyphs for (\d+) of the \1 "
                     "characters", out), out
    assert "font Vera-Regular: fonts/Vera-Regular.ttf has glyphs for" in out


# -- coverage: a missing glyph ----------------------------------------------------------------

def test_a_missing_glyph_is_a_preflight_finding_and_build_refuses_it(fontgame, capsys):
    assert fonts.missing_glyphs("symbol", "♠") == ""  # DejaVu has it; Vera does not
    edit(fontgame / "game.yaml", "{name: Noon, suit: sun", "{name: Noon ♠, suit: sun")
    card = fontgame / "faces" / "card.yaml"
    line = line_of(card, "text: \"{{ item.name }}\"")

    code, out, _ = run(capsys, "verify", "fontgame")
    assert code == 1, out
    finding = next(row for row in out.splitlines() if "pre-flight glyph" in row)
    assert "[FAIL]" in finding
    assert f"faces/card.yaml:{line}" in finding
    assert "Vera-Bold (fonts/Vera-Bold.ttf) has no glyph for '♠'" in finding
    assert "on Noon ♠" in finding
    assert "none for '♠'" in out  # the coverage line says so too

    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    assert f"faces/card.yaml:{line}" in err
    assert "no glyph for '♠'" in err and "empty boxes" in err and "'Noon ♠'" in err
    assert "Traceback" not in err
    assert not (fontgame / "output" / "fontgame" / "fontgame.pdf").exists()


# -- names --------------------------------------------------------------------------------------

def test_an_unknown_font_lists_the_built_in_and_project_names(fontgame, capsys):
    edit(fontgame / "faces" / "card.yaml", 'font: "{{ fonts.body }}"', "font: Lobster")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    line = line_of(fontgame / "faces" / "card.yaml", "font: Lobster")
    assert f"faces/card.yaml:{line}" in err
    assert "expected a font key (sans, sans-bold" in err
    assert "Vera-Bold, Vera-Regular" in err and "fonts/ folder" in err
    assert "got 'Lobster'" in err


def test_names_case_clashes_and_a_font_shadowing_a_built_in_key(in_tmp):
    folder = in_tmp / "names"
    (folder / "fonts").mkdir(parents=True)
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Title.ttf")
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "title.otf")
    shutil.copy(VERA / "VeraBd.ttf", folder / "fonts" / "sans-bold.ttf")
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "My Font.ttf")
    with project.using(project.Project(folder)):
        with pytest.raises(fonts.FontError, match=r"fonts/(Title\.ttf and fonts/title\.otf|"
                                                  r"title\.otf and fonts/Title\.ttf) are both"):
            fonts.check("Title")
        shadow = fonts.resolve("sans-bold")
        assert not shadow.builtin and shadow.path.name == "sans-bold.ttf"
        assert fonts.resolve("sans").builtin  # the other keys are still the built-in ones
        with pytest.raises(fonts.FontError, match=r"not usable as font names .*fonts/My Font"):
            fonts.check("My Font")
        assert "sans-bold" in fonts.names() and fonts.names().count("sans-bold") == 1


def test_two_projects_in_one_process_keep_their_own_fonts(in_tmp):
    widths, names = [], []
    for name, source in (("one", "Vera.ttf"), ("two", "VeraBd.ttf")):
        folder = in_tmp / name
        (folder / "fonts").mkdir(parents=True)
        shutil.copy(VERA / source, folder / "fonts" / "Title.ttf")
        with project.using(project.Project(folder)):
            widths.append(fonts.text_width_mm("Title", "Moving Day", 10))
            names.append(fonts.pdf_name("Title"))
            assert fonts.path("Title").path.parent == folder / "fonts"
    assert widths[0] != pytest.approx(widths[1])
    assert names[0] != names[1] and all(n.startswith("pnp-font-") for n in names)


def test_a_font_added_while_watching_is_found_by_the_next_build(in_tmp):
    folder = in_tmp / "later"
    (folder / "fonts").mkdir(parents=True)
    with project.using(project.Project(folder)):
        assert not fonts.known("Late")
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Late.ttf")
    with context.building(), project.using(project.Project(folder)):  # a rebuild
        assert fonts.known("Late")


# -- variants for bold and italic runs --------------------------------------------------------

def test_variants_of_built_in_keys_and_project_fonts(in_tmp):
    assert fonts.variant("sans", bold=True, italic=False) == "sans-bold"
    assert fonts.variant("sans", bold=False, italic=True) == "sans-italic"
    assert fonts.variant("sans", bold=True, italic=True) == "sans-bold"  # no bold italic
    assert fonts.variant("sans-italic", bold=True, italic=False) == "sans-bold"
    assert fonts.variant("symbol", bold=False, italic=True) == "symbol"
    assert fonts.variant("condensed", bold=True, italic=False) == "condensed-bold"
    assert fonts.variant("sans-bold", bold=True, italic=False) == "sans-bold"
    assert fonts.variant("no-such-font", bold=True, italic=False) == "no-such-font"
    folder = in_tmp / "family"
    (folder / "fonts").mkdir(parents=True)
    for source, name in (("Vera", "Regular"), ("VeraBd", "Bold"), ("VeraIt", "Italic"),
                         ("VeraBI", "BoldItalic")):
        shutil.copy(VERA / f"{source}.ttf", folder / "fonts" / f"Vera-{name}.ttf")
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Solo.ttf")
    with project.using(project.Project(folder)):
        assert fonts.variant("Vera-Regular", True, False) == "Vera-Bold"
        assert fonts.variant("vera-regular", False, True) == "Vera-Italic"
        assert fonts.variant("Vera-Regular", True, True) == "Vera-BoldItalic"
        assert fonts.variant("Vera-Italic", True, False) == "Vera-BoldItalic"
        assert fonts.variant("Solo", True, True) == "Solo"


# -- hostile font files -------------------------------------------------------------------------

def use_title_font(folder: Path, name: str) -> int:
    """Set the starter card's title font to ``name`` in the template; returns that line."""
    card = folder / "faces" / "card.yaml"
    edit(card, 'font: "{{ fonts.title }}", size: 13', f"font: {name}, size: 13")
    return line_of(card, f"font: {name}, size: 13")


def test_a_corrupt_ttf_names_the_file_and_the_template_line(fontgame, capsys):
    (fontgame / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00" + bytes(range(256)) * 4)
    line = use_title_font(fontgame, "Broken")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    assert f"faces/card.yaml:{line}" in err
    assert "fonts/Broken.ttf cannot be used as a font" in err
    assert "Traceback" not in err


def test_a_corrupt_font_named_by_the_theme_names_the_theme_line(fontgame, capsys):
    (fontgame / "fonts" / "Broken.ttf").write_bytes(b"true" + b"\xff" * 64)
    theme = fontgame / "themes" / "starter.yaml"
    edit(theme, "title: Vera-Bold", "title: Broken")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    assert f"themes/starter.yaml:{line_of(theme, 'title: Broken')}" in err
    assert "fonts/Broken.ttf cannot be used as a font" in err


def test_a_cff_opentype_font_is_refused_with_its_own_message(fontgame, capsys):
    (fontgame / "fonts" / "Display.otf").write_bytes(b"OTTO" + bytes(400))
    line = use_title_font(fontgame, "Display")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    assert f"faces/card.yaml:{line}" in err
    assert "fonts/Display.otf has PostScript (CFF) outlines" in err
    assert "TrueType-outline version" in err


def test_not_a_font_and_a_web_font_are_refused(fontgame):
    (fontgame / "fonts" / "Text.ttf").write_text("hello, I am not a font", encoding="utf-8")
    (fontgame / "fonts" / "Web.ttf").write_bytes(b"wOF2" + bytes(100))
    with project.using(project.Project(fontgame)):
        with pytest.raises(fonts.FontError, match=r"fonts/Text\.ttf is not a TrueType or Open"):
            fonts.check("Text")
        with pytest.raises(fonts.FontError, match=r"fonts/Web.ttf is a web font \(WOFF\)"):
            fonts.check("Web")


def test_an_oversized_font_file_is_refused_before_it_is_read(fontgame, capsys):
    huge = fontgame / "fonts" / "Huge.ttf"
    with huge.open("wb") as handle:  # sparse: nothing is written but the size
        handle.truncate(project_fonts.MAX_FONT_BYTES + 1)
    line = use_title_font(fontgame, "Huge")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2
    assert f"faces/card.yaml:{line}" in err and "fonts/Huge.ttf is 30 MB" in err
    assert "at most 30 MB" in err


def test_symlinked_font_files_and_folders_are_refused(fontgame, in_tmp, capsys):
    outside = in_tmp / "elsewhere.ttf"
    shutil.copy(VERA / "Vera.ttf", outside)
    (fontgame / "fonts" / "Linked.ttf").symlink_to(outside)
    with project.using(project.Project(fontgame)), \
            pytest.raises(fonts.FontError, match=r"fonts/Linked\.ttf is a symlink"):
        fonts.check("Linked")
    shutil.rmtree(fontgame / "fonts")
    (in_tmp / "shared-fonts").mkdir()
    (fontgame / "fonts").symlink_to(in_tmp / "shared-fonts")
    code, _, err = run(capsys, "build", "fontgame")
    assert code == 2 and "a project's fonts/ must be a folder inside it" in err


def test_a_font_error_in_a_template_is_a_data_error(fontgame):
    """The template layer turns FontError into a DataError naming file and line."""
    from generator.data.design.templates import load_template
    from tests.drawing import render_face

    edit(fontgame / "faces" / "token.yaml", "elements:", "elements:\n  - text: {x: 1, y: 1, "
         "w: 5, h: 5, text: a, font: Nope}")
    with project.using(project.Project(fontgame)), \
            pytest.raises(DataError, match=r"token\.yaml:\d+: elements\[0\]\.text\.font: "
                                           "expected a font key"):
        render_face(load_template("token"), 20, 20, {})


# -- ReportLab's registry is one per process ----------------------------------------------------

def wider_a(source: Path, target: Path) -> None:
    """A copy of a TTF whose letter A is twice as wide: the same PostScript name (a project's
    own build of a built-in font), other metrics."""
    import struct

    from reportlab.pdfbase.ttfonts import TTFontFile

    data = bytearray(source.read_bytes())
    glyph = TTFontFile(str(source)).charToGlyph[ord("A")]
    tables = struct.unpack(">H", data[4:6])[0]
    for index in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        if tag == b"hmtx":
            at = offset + 4 * glyph
            width = struct.unpack(">H", data[at:at + 2])[0]
            data[at:at + 2] = struct.pack(">H", width * 2)
    target.write_bytes(bytes(data))


SAME_NAME = """
import sys
from pathlib import Path
from generator.core import context
from generator.data.files import project
from generator.data.typefaces import fonts
folder = Path(sys.argv[1])
{first}
{second}
"""
OWN = """
with context.building(), project.using(project.Project(folder)):
    print("own", fonts.text_width_mm("Twin", "A", 10))
"""
BUILT_IN = """
with context.building():
    print("built-in", fonts.text_width_mm("symbol", "A", 10))
"""


@pytest.mark.slow
@pytest.mark.parametrize("order", ["built-in first", "project first"])
def test_a_project_font_named_like_a_built_in_one_changes_no_other_build(in_tmp, order):
    """ReportLab maps a second font of a PostScript name already registered to the first:
    whichever of the two was registered first would have answered for both (in one
    process: another thread's build, the next build of ``pnp watch``)."""
    import subprocess
    import sys

    folder = in_tmp / "twin"
    (folder / "fonts").mkdir(parents=True)
    wider_a(fonts.font_files()["symbol"], folder / "fonts" / "Twin.ttf")
    first, second = (BUILT_IN, OWN) if order == "built-in first" else (OWN, BUILT_IN)
    script = SAME_NAME.format(first=first, second=second)
    done = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True,
                          text=True, check=True, cwd=paths.ROOT)
    widths = dict(line.split() for line in done.stdout.splitlines())
    assert float(widths["own"]) == pytest.approx(2 * float(widths["built-in"]))
    with context.building():
        assert fonts.text_width_mm("symbol", "A", 10) == pytest.approx(float(widths["built-in"]))
