"""SVGs that cannot fan out (issue 24): what svgelements expands is what the scanner counts
(generator/data/design/svg_scan.py). Each reproduction ends, under a 500 MB address space, with one
line naming the file; before, a 1.5 KB icon took minutes and gigabytes, then a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.design.svg import load_art
from generator.data.design.svg_scan import MAX_DEPTH, MAX_ELEMENTS, SvgRefused, read_svg
from generator.frontends.cli import main
from tests.hostile.limits import one_error_line, pnp_limited

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:f="urn:foreign" viewBox="0 0 9 9">')


def fan_out(group: str, use: str, levels: int = 7, fan: int = 10) -> str:
    """``levels`` groups each holding ``fan`` uses of the one before: fan**levels copies of
    one square from ~1.5 KB. ``group`` is the groups' tag, ``use`` one use of ``#{id}``."""
    parts = [HEAD, f'<defs><{group} id="a0"><path d="M0 0h9v9z"/></{group}>']
    for i in range(1, levels + 1):
        parts.append(f'<{group} id="a{i}">' + use.format(id=f"a{i - 1}") * fan + f"</{group}>")
    parts.append("</defs>" + use.format(id=f"a{levels}") + "</svg>")
    return "\n".join(parts) + "\n"


REPRODUCTIONS = {
    # The issue's: ids on elements of another namespace were not recorded, so these uses
    # counted as nothing while svgelements copied every one (148 s, 1.9 GB, SystemError).
    "foreign groups": fan_out("f:g", '<use href="#{id}"/>'),
    # svgelements follows href before xlink:href, whichever is written first.
    "href over xlink:href": fan_out("g", '<use href="#{id}" xlink:href="#a0"/>'),
}


@pytest.fixture
def starter(tmp_path: Path) -> Path:
    assert main(["init", str(tmp_path / "game")]) == 0
    return tmp_path / "game"


@pytest.mark.slow
@pytest.mark.parametrize("case", list(REPRODUCTIONS))
def test_a_use_fan_out_ends_in_one_line_naming_the_icon_within_500_mb(starter, case):
    assert len(REPRODUCTIONS[case]) < 3000  # a few KB
    (starter / "icons" / "leaf.svg").write_text(REPRODUCTIONS[case], encoding="utf-8")
    result = pnp_limited(["build", starter])
    assert result.returncode == 2
    line = one_error_line(result)
    assert "icons/leaf.svg" in line
    assert f"more than {MAX_ELEMENTS:,} elements once every <use> is expanded" in line
    assert not (starter / "output").exists() or not any((starter / "output").rglob("*.pdf"))


@pytest.mark.parametrize("case", list(REPRODUCTIONS))
def test_the_scanner_refuses_a_fan_out_before_any_copy_is_made(tmp_path, case):
    file = tmp_path / "fan.svg"
    file.write_text(REPRODUCTIONS[case], encoding="utf-8")
    with pytest.raises(SvgRefused, match=f"more than {MAX_ELEMENTS:,} elements"):
        read_svg(file, "fan.svg")


def test_a_small_use_of_a_foreign_group_still_draws(tmp_path):
    """svgelements draws the SVG shapes inside another namespace's element; a modest use of
    one is counted and drawn, as are Inkscape's own elements."""
    file = tmp_path / "ok.svg"
    file.write_text(HEAD.replace('xmlns:f="urn:foreign"',
                                 'xmlns:f="urn:foreign" xmlns:sodipodi="http://sodipodi'
                                 '.sourceforge.net/DTD/sodipodi-0.dtd"')
                    + '<sodipodi:namedview id="nv" pagecolor="#ffffff"/>'
                    '<defs><f:g id="sq"><path d="M0 0h4v4z"/></f:g></defs>'
                    '<use href="#sq"/><use href="#sq" x="5" y="5"/></svg>', encoding="utf-8")
    # svg, namedview, defs > f:g > path, and each use copies the f:g and its path
    assert read_svg(file, "ok.svg").elements == 1 + 1 + 3 + 2 * 3
    assert len(load_art(file).shapes) == 2


def nested(depth: int, inner: str) -> str:
    return "<g>" * depth + inner + "</g>" * depth


@pytest.mark.parametrize("defs_first", [True, False])
def test_the_nesting_limit_does_not_depend_on_element_order(tmp_path, defs_first):
    """A group 40 deep, defined near the top and used from 30 groups down: copied there it
    nests past the limit, whether its definition comes before the use or after (each
    element is sized once; its height is kept so a later, deeper copy is measured too)."""
    defs = '<defs><g id="tall">' + nested(39, '<path d="M0 0h9v9z"/>') + "</g></defs>"
    deep = nested(30, '<use href="#tall"/>')
    file = tmp_path / "deep.svg"
    file.write_text(HEAD + (defs + deep if defs_first else deep + defs) + "</svg>",
                    encoding="utf-8")
    with pytest.raises(SvgRefused, match=f"nest more than {MAX_DEPTH} deep"):
        read_svg(file, "deep.svg")
    file.write_text(HEAD + defs + nested(20, '<use href="#tall"/>') + "</svg>",
                    encoding="utf-8")
    read_svg(file, "deep.svg")


def test_a_foreign_elements_attributes_are_checked_as_they_reach_the_shapes(tmp_path):
    """svgelements passes a foreign element's transform and paints down to the SVG shapes
    inside it: bounded and checked as on an SVG element."""
    file = tmp_path / "t.svg"
    file.write_text(HEAD + f'<f:g transform="{"translate(1 1) " * 200}"><path d="M0 0h9v9z"/>'
                    "</f:g></svg>", encoding="utf-8")
    with pytest.raises(SvgRefused, match=r"line 1: <\{urn:foreign\}g> transform is 3,000 "
                                         "characters long; at most 1,000"):
        read_svg(file, "t.svg")
    file.write_text(HEAD + '<f:g style="fill: url(#grad)"><path d="M0 0h9v9z"/></f:g></svg>',
                    encoding="utf-8")
    with pytest.raises(SvgRefused, match="gradients and patterns are not supported"):
        read_svg(file, "t.svg")


def test_a_nan_coordinate_gets_its_own_plain_message(tmp_path):
    """scale(1e400) is infinity, times a zero is NaN: not "out of range (nan, nan)"."""
    file = tmp_path / "nan.svg"
    file.write_text(HEAD + '<path transform="scale(1e400)" d="M0 0h9v9z"/></svg>',
                    encoding="utf-8")
    with pytest.raises(SvgRefused, match=r"nan\.svg: <path> has a coordinate that is not a "
                                         r"number \(NaN\)"):
        load_art(file)
