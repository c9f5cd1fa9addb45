"""Colour-vision pre-flight: CIEDE2000 against Sharma's data, deficiency simulation, and the
pair-finding API that flags game colours players could confuse."""
from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.orchestration.preflight.colour import (
    DEFAULT_THRESHOLD,
    MODES,
    Pair,
    closest_pairs,
    confusable,
    delta_e2000,
    parse_hex,
    relative_luminance,
    report,
    simulate,
    to_lab,
)

# Sharma, Wu & Dalal (2005), Table 1: all 34 pairs, (Lab1, Lab2, ΔE00 to 4 decimals).
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]

# A brick red and a leaf green of similar lightness: ΔE00 ≈ 51 in normal vision, ≈ 1.4 for a
# deuteranope. The classic suit-colour mistake.
SUNS, LEAVES = "#b5452f", "#4f7f2a"

labs = st.tuples(st.floats(0, 100), st.floats(-128, 127), st.floats(-128, 127))
channels = st.integers(0, 255)


def to_hex(r: int, g: int, b: int) -> str:
    return f"#{r:02x}{g:02x}{b:02x}"


hex_colours = st.tuples(channels, channels, channels).map(lambda c: to_hex(*c))


def seen(hex_colour: str, mode: str) -> tuple[float, float, float]:
    return to_lab(simulate(hex_colour, mode))


def de(a: str, b: str, mode: str) -> float:
    return delta_e2000(seen(a, mode), seen(b, mode))


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_sharma_table(lab1, lab2, expected):
    assert round(delta_e2000(lab1, lab2), 4) == expected
    assert delta_e2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)


@given(labs, labs)
def test_ciede2000_is_symmetric_and_non_negative(lab1, lab2):
    d = delta_e2000(lab1, lab2)
    assert d >= 0
    assert d == pytest.approx(delta_e2000(lab2, lab1), rel=1e-12, abs=1e-12)


@given(labs)
def test_ciede2000_is_zero_for_identical_colours(lab):
    assert delta_e2000(lab, lab) == 0


def test_parse_hex_short_and_long_forms():
    assert parse_hex("#ff8800") == parse_hex("#F80") == (1.0, 136 / 255, 0.0)
    assert parse_hex("#000") == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("bad", ["ff0000", "#12", "#12345", "#1234567", "#ggg", "", " #fff",
                                 "#fff ", "red", "#ff00zz"])
def test_bad_hex_raises_naming_the_value(bad):
    with pytest.raises(ValueError, match=re.escape(repr(bad))):
        parse_hex(bad)


def test_non_string_is_a_value_error_too():
    with pytest.raises(ValueError, match="123"):
        parse_hex(123)  # type: ignore[arg-type]


def test_bad_colour_in_a_palette_names_the_colour_and_the_value():
    with pytest.raises(ValueError, match=r"'leaves'.*'#12'"):
        confusable({"suns": SUNS, "leaves": "#12"})


def test_unknown_mode_is_rejected():
    with pytest.raises(ValueError, match="achromatopsia"):
        simulate("#ffffff", "achromatopsia")


@pytest.mark.parametrize(("hex_colour", "lab"), [
    ("#ffffff", (100.0, 0.0, 0.0)),
    ("#000000", (0.0, 0.0, 0.0)),
    ("#ff0000", (53.2408, 80.0925, 67.2032)),
    ("#00ff00", (87.7347, -86.1827, 83.1793)),
    ("#0000ff", (32.2970, 79.1875, -107.8602)),
])
def test_to_lab_known_values(hex_colour, lab):
    assert to_lab(parse_hex(hex_colour)) == pytest.approx(lab, abs=1e-3)


@given(channels)
def test_greys_are_neutral_in_lab(level):
    _, a, b = to_lab(parse_hex(to_hex(level, level, level)))
    assert abs(a) < 1e-9 and abs(b) < 1e-9


@pytest.mark.parametrize("mode", MODES)
@given(level=channels)
def test_greys_stay_grey_in_every_mode(mode, level):
    grey = to_hex(level, level, level)
    sim = simulate(grey, mode)
    assert sim == pytest.approx(parse_hex(grey), abs=1e-5)
    assert delta_e2000(seen(grey, mode), seen(grey, "normal")) < 0.01


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@given(hex_colour=hex_colours)
def test_simulation_stays_in_gamut(mode, hex_colour):
    assert all(0.0 <= c <= 1.0 for c in simulate(hex_colour, mode))


def test_normal_is_no_simulation():
    assert simulate("#b5452f", "normal") == parse_hex("#b5452f")


@given(hex_colours)
def test_greyscale_is_luminance_in_every_channel(hex_colour):
    r, g, b = simulate(hex_colour, "greyscale")
    assert r == g == b
    y = relative_luminance(parse_hex(hex_colour))
    # Re-linearising the grey channel gives back the Rec. 709 luminance of the colour.
    assert relative_luminance((r, g, b)) == pytest.approx(y, abs=1e-9)
    assert to_lab((r, g, b))[0] == pytest.approx(to_lab(parse_hex(hex_colour))[0], abs=0.05)


def test_rec709_luminance_of_primaries():
    assert relative_luminance(parse_hex("#ff0000")) == pytest.approx(0.2126)
    assert relative_luminance(parse_hex("#00ff00")) == pytest.approx(0.7152)
    assert relative_luminance(parse_hex("#0000ff")) == pytest.approx(0.0722)
    assert relative_luminance(parse_hex("#ffffff")) == pytest.approx(1.0)


def test_red_and_green_collapse_for_red_green_deficiencies():
    normal = de("#ff0000", "#00ff00", "normal")
    assert normal > 80
    for mode in ("protanopia", "deuteranopia"):
        assert de("#ff0000", "#00ff00", mode) < normal / 2
    # Tritanopes keep the red-green axis.
    assert de("#ff0000", "#00ff00", "tritanopia") > 60


def test_blue_and_green_are_closer_for_tritanopia():
    assert de("#0072b2", "#009e73", "tritanopia") < de("#0072b2", "#009e73", "normal") / 2


def test_deuteranopia_collapses_red_green_of_equal_lightness():
    assert de(SUNS, LEAVES, "normal") > 40
    assert de(SUNS, LEAVES, "deuteranopia") < 3


def test_confusable_finds_the_deuteranopia_collision():
    colours = {"suns": SUNS, "leaves": LEAVES, "white": "#ffffff"}
    found = confusable(colours)
    assert Pair("suns", "leaves", "deuteranopia", pytest.approx(1.4, abs=0.2)) in found
    assert found[0].mode == "deuteranopia"
    assert all(p.mode != "normal" for p in found)
    assert all({p.a, p.b} == {"suns", "leaves"} for p in found)
    assert [p.delta_e for p in found] == sorted(p.delta_e for p in found)
    assert all(p.delta_e < DEFAULT_THRESHOLD for p in found)


def test_confusable_threshold_is_respected():
    colours = {"suns": SUNS, "leaves": LEAVES}
    assert confusable(colours, threshold=0.5) == []
    assert len(confusable(colours, threshold=1000)) == len(MODES)


def test_confusable_finds_nothing_in_black_and_white():
    assert confusable({"black": "#000000", "white": "#ffffff"}) == []


def test_a_colour_blind_safe_palette_passes_normal_vision():
    # Okabe & Ito's palette is designed for deficient vision; in normal vision no pair is close.
    okabe_ito = {"orange": "#e69f00", "sky": "#56b4e9", "green": "#009e73", "yellow": "#f0e442",
                 "blue": "#0072b2", "vermillion": "#d55e00", "purple": "#cc79a7"}
    assert closest_pairs(okabe_ito)["normal"].delta_e > DEFAULT_THRESHOLD


def test_closest_pairs_one_per_mode():
    colours = {"suns": SUNS, "leaves": LEAVES, "sky": "#1f5fbf", "night": "#111111"}
    closest = closest_pairs(colours)
    assert list(closest) == list(MODES)
    assert closest["deuteranopia"] == Pair("suns", "leaves", "deuteranopia",
                                           closest["deuteranopia"].delta_e)
    for mode, pair in closest.items():
        assert pair.mode == mode
        every = [de(colours[a], colours[b], mode) for a in colours for b in colours if a < b]
        assert math.isclose(pair.delta_e, min(every), rel_tol=1e-12)


def test_closest_pairs_needs_two_colours():
    assert closest_pairs({}) == {}
    assert closest_pairs({"only": "#123456"}) == {}


def test_report_lines():
    lines = report({"suns": SUNS, "leaves": LEAVES, "sky": "#1f5fbf"})
    assert len(lines) == len(MODES)
    assert [line.split(":")[0] for line in lines] == list(MODES)
    deut = lines[MODES.index("deuteranopia")]
    assert deut.startswith("deuteranopia: closest suns/leaves ΔE00 1.4")
    assert "under 10" in deut
    assert "under" not in lines[MODES.index("normal")]


def test_report_with_too_few_colours():
    assert all("nothing to compare" in line for line in report({"only": "#fff"}))


def test_pair_is_frozen():
    pair = Pair("a", "b", "normal", 1.0)
    with pytest.raises(AttributeError):
        pair.delta_e = 2.0  # type: ignore[misc]
