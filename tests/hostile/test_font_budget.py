"""A budget of mapped code points across a build's fonts (issue 35): each font's cmap is
bounded (all of Unicode at most, generator/data/typefaces/sfnt.py), but sixteen 54 KB fonts each
mapping all of Unicode peaked at 2.1 GB (ReportLab holds two dict entries a code point).
A build's own fonts now map ``MAX_BUILD_CODE_POINTS`` together; the font past it is refused
in one line naming it, before ReportLab parses it."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core import context
from generator.data.files import project
from generator.data.typefaces import fonts, sfnt
from generator.frontends.cli import main
from tests.hostile.limits import one_error_line, pnp_limited, pnp_limited_each
from tests.hostile.test_fonts import changed, cmap

EVERY = 0x110000  # code points a last-resort font maps (format 13, one group)


def last_resort(glyph: int) -> bytes:
    """The built-in sans-bold mapping all of Unicode to one glyph (a distinct file per
    ``glyph``)."""
    return changed(cmap=cmap(13, [(0, 0x10FFFF, glyph)]))


def project_with_fonts(folder: Path, count: int, same: int = 0) -> Path:
    """``pnp init``'s starter whose card draws a word in each of ``count`` project fonts
    (F0, F1...), the last ``same`` of them copies of F0's file under other names."""
    assert main(["init", str(folder)]) == 0
    (folder / "fonts").mkdir()
    face = folder / "faces" / "card.yaml"
    text = face.read_text(encoding="utf-8")
    for i in range(count):
        glyph = 1 if i >= count - same else 1 + i
        (folder / "fonts" / f"F{i}.ttf").write_bytes(last_resort(glyph))
        text += (f"  - text: {{x: 5, y: {30 + i}, w: 50, h: 5, size: 6, text: Ab, "
                 f"font: F{i}}}\n")
    face.write_text(text, encoding="utf-8")
    return folder


@pytest.mark.slow  # over tests/lanes.py's budget
def test_sixteen_fonts_mapping_all_of_unicode_end_in_one_line_within_500_mb(tmp_path):
    game = project_with_fonts(tmp_path / "game", 16)
    assert all(f.stat().st_size < 65_000 for f in (game / "fonts").iterdir())
    result = pnp_limited(["build", game])
    assert result.returncode == 2, result.stderr[-2000:]
    line = one_error_line(result)
    assert "faces/card.yaml:" in line and ".text.font: fonts/F2.ttf maps 1,114,112 code " \
        "points, and the 2 fonts this build read before it map 2,228,224" in line
    assert f"may map {fonts.MAX_BUILD_CODE_POINTS:,} together" in line
    assert not (game / "output").exists() or not list((game / "output").rglob("*.pdf"))


@pytest.mark.slow  # over tests/lanes.py's budget
def test_two_such_fonts_build_and_each_build_counts_its_own(tmp_path):
    """Within the budget a kit builds, and again in the same process (``pnp watch``): a
    build's count starts at nothing whatever an earlier one read."""
    game = project_with_fonts(tmp_path / "game", 2)
    done = pnp_limited_each([["build", game, "--out", tmp_path / f"out{n}"] for n in range(3)])
    assert [d.returncode for d in done] == [0, 0, 0], done[0].stderr[-2000:]
    assert (tmp_path / "out2" / "game" / "game.pdf").stat().st_size > 10_000


@pytest.mark.slow  # over tests/lanes.py's budget
def test_one_file_under_two_names_is_counted_once(tmp_path):
    """Three names, two files: 2 x 1,114,112 code points, inside the budget."""
    game = project_with_fonts(tmp_path / "game", 3, same=1)
    with context.building(), project.using(project.Project(game)):
        for name in ("F0", "F1", "F2", "f0"):
            fonts.check(name)
        held = fonts.project_fonts.in_use()
        assert held.code_points == 2 * EVERY and len(held.counted) == 2


def test_a_cmap_reports_the_most_one_subtable_maps():
    assert sfnt.read(last_resort(1)).code_points == EVERY
    builtin = sfnt.read(fonts.font_files()["sans"].read_bytes())
    assert 200 < builtin.code_points < 2_000  # Atkinson Hyperlegible: Latin


def test_the_budget_is_checked_before_reportlab_parses_the_font(tmp_path, monkeypatch):
    """Past the budget, the font's tables are read (to count) but no TTFont is made."""
    game = project_with_fonts(tmp_path / "game", 1)
    monkeypatch.setattr(fonts, "MAX_BUILD_CODE_POINTS", EVERY - 1)
    parsed: list[object] = []
    monkeypatch.setattr(fonts, "TTFont", lambda *args: parsed.append(args))
    refused = pytest.raises(fonts.FontError, match=r"fonts/F0\.ttf maps 1,114,112 code "
                                                   r"points, and the 0 fonts")
    with context.building(), project.using(project.Project(game)), refused:
        fonts.check("F0")
    assert parsed == []
