"""A font's tables read once per file content (generator/data/typefaces/font_tables.py): a restored
font is the parsed one, attribute for attribute, a second process parses no font, and an entry
that does not fit is a miss."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFont, TTFontFile

from generator.core import code_cache, paths
from generator.data.typefaces import font_tables, fonts
from tests.processes import run_script

DEJAVU = paths.FONTS / "dejavu" / "DejaVuSans.ttf"  # 2048 units per em: widths are floats


def same_font(parsed: TTFont, other: TTFont) -> None:
    """Every attribute ReportLab's parse leaves, equal and of the same type (ints stay ints,
    mappings keep their order), and the font object's own."""
    left, right = dict(vars(parsed.face)), dict(vars(other.face))
    assert left.pop("_pdfScale")(1234) == right.pop("_pdfScale")(1234)
    left.pop("_pos")
    right.pop("_pos")
    assert left.keys() == right.keys()
    for name, value in left.items():
        assert right[name] == value and type(right[name]) is type(value), name
        if isinstance(value, dict):
            assert list(right[name].items()) == list(value.items()), name
            assert [type(v) for v in right[name].values()] == [type(v) for v in value.values()]
        if isinstance(value, list):
            assert [repr(v) for v in right[name]] == [repr(v) for v in value], name
    assert vars(parsed).keys() == vars(other).keys()
    assert (other.fontName, other._asciiReadable, other.shapable) == \
        (parsed.fontName, parsed._asciiReadable, parsed.shapable)


@pytest.mark.parametrize("key", ["sans", "symbol-bold"])
def test_a_restored_font_is_the_parsed_one(fresh_cache, key):
    path = fonts.font_files()[key]
    parsed = TTFont("pnp-test", str(path))
    first = font_tables.ttfont("pnp-test", path)  # parsed and kept
    again = font_tables.ttfont("pnp-test", path)  # restored
    assert len(list((fresh_cache / "code").glob("*.code"))) == 1
    same_font(parsed, first)
    same_font(parsed, again)
    text = "Deal 10 cards: 0 left"
    assert again.stringWidth(text, 9) == parsed.stringWidth(text, 9)
    subset = [ord(ch) for ch in text]
    assert again.face.makeSubset(subset) == parsed.face.makeSubset(subset)


def test_a_font_from_bytes_is_named_as_reportlab_names_it(fresh_cache):
    data = DEJAVU.read_bytes()
    font_tables.ttfont("pnp-bytes", data=data)
    again = font_tables.ttfont("pnp-bytes", data=data)
    same_font(TTFont("pnp-bytes", __import__("io").BytesIO(data)), again)
    assert again.face.filename == "(ttf)"


# In a fresh process: register every built-in font, count ReportLab's parses of a font's tables.
COUNTING = """
import json
from reportlab.pdfbase import ttfonts
count = [0]
real = ttfonts.TTFontFile.extractInfo
def counted(self, *args, **kwargs):
    count[0] += 1
    return real(self, *args, **kwargs)
ttfonts.TTFontFile.extractInfo = counted
from generator.core import context
from generator.data.typefaces import fonts
with context.building():
    widths = [fonts.text_width_mm(key, "Deal 10 cards", 9) for key in fonts.font_files()]
print(json.dumps({"parsed": count[0], "widths": widths}))
"""


def run_counting(cache: Path, **env: str) -> dict:
    return run_script(COUNTING, cache, **env)


@pytest.mark.slow  # starts processes
def test_a_second_process_parses_no_font(tmp_path):
    first = run_counting(tmp_path / "cache")
    second = run_counting(tmp_path / "cache")
    # Once per file: the seven built-in fonts and DejaVu Sans Oblique (the italic plain zero;
    # the other two plain zeros are the files of symbol and symbol-bold, read once each)
    assert first["parsed"] == len(fonts.font_files()) + 1
    assert second["parsed"] == 0
    assert second["widths"] == first["widths"]
    off = run_counting(tmp_path / "cache", PNP_CODE_CACHE="0")
    assert off["parsed"] == first["parsed"] + 2  # every font of every name: two files twice


@pytest.mark.parametrize("damage", ["a field's type", "glyphs past glyf", "not a state"])
def test_an_entry_that_does_not_fit_is_parsed_again(fresh_cache, monkeypatch, damage):
    font_tables.ttfont("pnp-test", DEJAVU)
    [entry] = (fresh_cache / "code").glob("*.code")
    key = entry.name.removesuffix(".code")
    header, kept = code_cache.load(key)
    if damage == "a field's type":
        kept["numGlyphs"] = float(kept["numGlyphs"])
    elif damage == "glyphs past glyf":
        kept["glyphPos"] = [*kept["glyphPos"][:-1], 10**9]
    else:
        kept = ["not", "a", "state"]
    assert code_cache.store(key, header, kept)
    parses = []
    real = TTFontFile.extractInfo

    def counted(self: TTFontFile, *args: object) -> None:
        parses.append(1)
        real(self, *args)
    monkeypatch.setattr(TTFontFile, "extractInfo", counted)
    same_font(TTFont("pnp-test", str(DEJAVU)), font_tables.ttfont("pnp-test", DEJAVU))
    assert len(parses) == 2  # the reference, and the damaged entry's font
