"""Icons and SVG art weigh what drawing them takes (issue 35): an icon was charged 80 units
whatever it held, so a 1.3 MB icon of one path and 190,000 segments cost 60+ s of CPU for one
card in ``pnp png`` (the PNG filler visits every edge crossing every pixel row). Now an icon,
an inline icon and SVG art are charged for their outline's points and the pixel rows their
edges cross at the size they are drawn (generator/core/vector.py ``IconDef.work``), and a
drawing that alone takes more than a face may spend is refused in one line naming its file."""
from __future__ import annotations

import math
import re

import pytest

from generator.core.vector import EDGE_ROW_WORK, POINT_WORK, REFERENCE_PX_PER_MM, IconDef
from generator.data.design.svg import load_art
from generator.expressions import MAX_FACE_WORK
from tests.hostile.limits import one_error_line, pnp_limited, pnp_limited_each


def zigzag(segments: int) -> str:
    """One path running up and down across the whole view box: every edge crosses every
    row (the filler's worst case), ~9 bytes a segment."""
    points = " ".join(f"{i * 100 / segments:.3f} {99 if i % 2 else 1}"
                      for i in range(segments))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<path d="M0 1L{points}z"/></svg>\n')


@pytest.mark.slow  # over tests/lanes.py's budget
def test_the_issues_icon_ends_in_one_line_naming_it_before_any_png(starter):
    """190,000 segments, ~1.7 MB (inside the SVG limits): refused at its first use, naming
    the icon file and the template line that draws it, under the 500 MB cap."""
    icon = starter / "icons" / "leaf.svg"
    icon.write_text(zigzag(190_000), encoding="utf-8")
    assert icon.stat().st_size < 2 << 20
    for command in (["png", "--force"], ["build", "--force"]):
        result = pnp_limited([*command, starter])
        assert result.returncode == 2, result.stderr[-2000:]
        line = one_error_line(result)
        assert "faces/card.yaml:" in line and "icons/leaf.svg: drawing it at 8 x 8 mm" in line
        assert f"a face may spend {MAX_FACE_WORK:,}" in line
        assert "Path > Simplify" in line
    assert not list(starter.rglob("*.png")) and not list(starter.rglob("*.pdf"))


def test_a_drawing_that_spends_the_face_s_budget_with_others_is_named_too(starter):
    """Each use fits a face alone (8, 8 and 28 mm), the three together do not: the use
    that spends the rest names the drawing beside the face's limit."""
    (starter / "icons" / "leaf.svg").write_text(zigzag(9_000), encoding="utf-8")
    result = pnp_limited(["build", "--force", starter])
    line = one_error_line(result)
    assert result.returncode == 2
    assert re.search(r"faces/card\.yaml:\d+: elements\[\d+\]\.icon\.name: more than "
                     r".* in one face; drawing .*icons/leaf\.svg at 28 x 28 mm takes "
                     r"[\d,]+ of them", line), line


@pytest.mark.slow  # over tests/lanes.py's budget
def test_svg_art_and_inline_icons_are_charged_too(starter):
    """The same drawing as a template's picture (``image: {path: ...svg}``) and as an
    inline icon of rich text: each refused at the line drawing it."""
    (starter / "art").mkdir()
    (starter / "art" / "zig.svg").write_text(zigzag(60_000), encoding="utf-8")
    (starter / "icons" / "zig.svg").write_text(zigzag(60_000), encoding="utf-8")
    face = starter / "faces" / "card.yaml"
    original = face.read_text(encoding="utf-8")
    picture = original + ('  - image: {path: art/zig.svg, x: 5, y: 30, w: 50, h: 40}\n')
    inline = original + ('  - text: {x: 5, y: 30, w: 50, h: 40, size: 40, '
                         'text: "a :zig: b"}\n')
    face.write_text(picture, encoding="utf-8")
    results = pnp_limited_each([["build", "--force", starter]])
    line = one_error_line(results[0])
    assert re.search(r"faces/card\.yaml:\d+: elements\[\d+\]\.image\.path: .*art/zig\.svg: "
                     r"drawing it at 40 x 40 mm", line), line
    face.write_text(inline, encoding="utf-8")
    results = pnp_limited_each([["build", "--force", starter]])
    line = one_error_line(results[0])
    assert re.search(r"faces/card\.yaml:\d+: elements\[\d+\]\.text\.text: .*icons/zig\.svg: "
                     r"drawing it at", line), line
    assert not list(starter.rglob("*.pdf"))


@pytest.mark.slow  # over tests/lanes.py's budget
def test_a_heavy_icon_inside_the_limit_builds_and_a_modest_one_costs_little(starter):
    """A 190,000-point outline that crosses few rows (a polygonal circle) is fine: its
    points cost 760,000 units a use, the kit builds."""
    n = 190_000
    points = " ".join(f"{50 + 45 * math.cos(2 * math.pi * i / n):.1f} "
                      f"{50 + 45 * math.sin(2 * math.pi * i / n):.1f}" for i in range(1, n))
    (starter / "icons" / "leaf.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<path d="M95 50L{points}z"/></svg>\n', encoding="utf-8")
    result = pnp_limited(["build", "--force", starter])
    assert result.returncode == 0, result.stderr[-2000:]
    assert list(starter.rglob("*.pdf"))


def test_work_grows_with_the_outline_and_the_size_drawn(tmp_path):
    file = tmp_path / "zig.svg"
    file.write_text(zigzag(1000), encoding="utf-8")
    art = load_art(file)
    points, span = art.outline
    assert points == 1000 + 2  # M, the 1,000 points after it, z
    # 1,000 edges of 98 units and the closing one, across a 100-unit view box
    assert span == pytest.approx(1000 * 98 + 0, rel=0.01)
    small, large = art.work(10, 10), art.work(40, 40)
    rows_10 = span / 100 * 10 * REFERENCE_PX_PER_MM
    assert small == POINT_WORK * points + EDGE_ROW_WORK * math.ceil(rows_10)
    assert large - POINT_WORK * points == pytest.approx(4 * (small - POINT_WORK * points),
                                                        rel=0.001)
    assert art.source == str(file)


def test_an_outline_and_its_digest_are_of_the_drawing_not_its_name():
    square = (("M", (0.0, 0.0)), ("L", (10.0, 0.0)), ("L", (10.0, 10.0)), ("Z", ()))
    from generator.core.vector import IconShape

    one = IconDef("a", 10, 10, (IconShape(square, None, "main", "none", 0),))
    two = IconDef("b", 10, 10, (IconShape(square, None, "main", "none", 0),))
    unfilled = IconDef("a", 10, 10, (IconShape(square, None, "none", "main", 1),))
    assert one.digest == two.digest != unfilled.digest
    assert one.outline == (4, 20.0)  # up 10, back down 10 (the closing edge)
    assert unfilled.outline == (4, 0.0)  # a stroke is drawn by Pillow, not row by row
