"""Colour-vision pre-flight: do the colours that carry game information stay distinguishable?

Suits, box colours and token colours are rules information, so a player who cannot tell two of
them apart cannot play. About 1 in 12 men has a red-green deficiency, and many kits are printed
on a greyscale laser printer, so each palette is checked under five viewing modes (``MODES``):

* ``normal``: the colours as authored.
* ``protanopia``, ``deuteranopia``, ``tritanopia``: the severity-1.0 matrices of Machado,
  Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", IEEE TVCG 15(6), 1291-1298 (their published table of matrices for
  protanomaly, deuteranomaly and tritanomaly; severity 1.0 is the dichromat case). They model
  the cone responses, so they are applied to *linear* RGB; the result is clamped to [0, 1].
* ``greyscale``: Rec. 709 relative luminance Y in every channel, approximately what a
  greyscale laser printer does with a colour page.

Differences are measured as CIEDE2000 (ΔE00) between CIELAB values (sRGB, D65 white),
implemented from Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula:
implementation notes, supplementary test data, and mathematical observations", Color Research
& Application 30(1), 21-30. Everything here is pure Python and pure functions.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from generator.core.words import said

RGB = tuple[float, float, float]
Lab = tuple[float, float, float]
Matrix = tuple[RGB, RGB, RGB]

MODES = ("normal", "protanopia", "deuteranopia", "tritanopia", "greyscale")

# Why 10: ΔE00 ≈ 1 is a just-noticeable difference for large patches side by side in a
# viewing booth. Game colours are the opposite case: small pips and tokens, seen at a glance
# across a table under room light, printed on uncalibrated home printers whose ink drift alone
# is several ΔE00, and compared through an approximate deficiency model. The colour difference
# needed to tell colours apart grows steeply as the patch gets smaller (Stone, Szafir & Setlur
# 2014, "An engineering model for color difference as a function of size"), and about 10 ΔE00
# is a common designers' figure for "easily told apart at a glance in small areas". Lower would
# pass pairs that really are confused on the table; higher flags most working palettes.
DEFAULT_THRESHOLD = 10.0

# Machado et al. (2009), severity 1.0, for linear RGB; each row sums to 1 (to 6 decimals), so
# greys stay grey.
_MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}

# Linear sRGB -> CIE XYZ (IEC 61966-2-1, D65). The reference white is taken as the row sums,
# i.e. the XYZ of RGB (1, 1, 1), so every neutral grey has a* = b* = 0 exactly.
_RGB_TO_XYZ: Matrix = ((0.4124564, 0.3575761, 0.1804375),
                       (0.2126729, 0.7151522, 0.0721750),
                       (0.0193339, 0.1191920, 0.9503041))
_WHITE = tuple(sum(row) for row in _RGB_TO_XYZ)
_REC709 = (0.2126, 0.7152, 0.0722)  # luminance weights of linear R, G, B

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


@dataclass(frozen=True)
class Pair:
    """Two named colours, the viewing mode, and their ΔE00 as seen in that mode."""

    a: str
    b: str
    mode: str
    delta_e: float


def parse_hex(s: str) -> RGB:
    """``"#rgb"`` or ``"#rrggbb"`` -> sRGB in 0..1; anything else is a data error worth naming.

    A translucent ``"#rgba"`` / ``"#rrggbbaa"`` is judged as it prints on white paper: mixed
    with white in proportion to its opacity (what both renderers draw on a blank page; over
    a coloured background it would look different, which no palette check can know)."""
    if not isinstance(s, str) or not _HEX.fullmatch(s):
        raise ValueError(f"not a colour: {said(s)} (expected '#rgb', '#rrggbb' or, translucent, "
                         "'#rgba', '#rrggbbaa')")
    digits = s[1:]
    if len(digits) <= 4:
        digits = "".join(ch * 2 for ch in digits)
    a = int(digits[6:8], 16) / 255 if len(digits) == 8 else 1.0
    r, g, b = (int(digits[i:i + 2], 16) / 255 * a + (1 - a) for i in (0, 2, 4))
    return r, g, b


def _to_linear(c: float) -> float:
    """sRGB transfer function, decoded: perception-spaced values -> light intensity."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    """sRGB transfer function, encoded: the inverse of ``_to_linear``."""
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _mul(m: Matrix, v: RGB) -> RGB:
    x, y, z = (row[0] * v[0] + row[1] * v[1] + row[2] * v[2] for row in m)
    return x, y, z


def relative_luminance(rgb: RGB) -> float:
    """Rec. 709 relative luminance Y (0..1) of an sRGB colour: how much light it reflects."""
    lin = tuple(_to_linear(c) for c in rgb)
    return sum(w * c for w, c in zip(_REC709, lin, strict=True))


def simulate(hex_colour: str, mode: str) -> RGB:
    """How ``hex_colour`` looks in ``mode`` (one of ``MODES``), as sRGB 0..1."""
    rgb = parse_hex(hex_colour)
    if mode == "normal":
        return rgb
    if mode == "greyscale":
        y = _to_srgb(relative_luminance(rgb))
        return y, y, y
    if mode not in _MACHADO:
        raise ValueError(f"unknown colour-vision mode {said(mode)}; expected one of {MODES}")
    lin = _mul(_MACHADO[mode], (_to_linear(rgb[0]), _to_linear(rgb[1]), _to_linear(rgb[2])))
    r, g, b = (_to_srgb(min(1.0, max(0.0, c))) for c in lin)
    return r, g, b


def to_lab(rgb: RGB) -> Lab:
    """sRGB 0..1 -> CIELAB (D65): the space in which ΔE00 is defined."""
    xyz = _mul(_RGB_TO_XYZ, (_to_linear(rgb[0]), _to_linear(rgb[1]), _to_linear(rgb[2])))
    eps = (6 / 29) ** 3

    def f(t: float) -> float:
        return t ** (1 / 3) if t > eps else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 difference (kL = kC = kH = 1), following Sharma, Wu & Dalal (2005) step by step.

    Chosen over plain Euclidean ΔE76 because ΔE76 overstates differences between saturated
    colours and understates them between blues, exactly where game palettes live.
    """
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    # Step 1: a' (stretched for near-neutral colours), C', h'.
    c_bar7 = ((math.hypot(a1, b1) + math.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c_bar7 / (c_bar7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if (a1p or b1) else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if (a2p or b2) else 0.0
    # Step 2: ΔL', ΔC', ΔH'.
    dl = l2 - l1
    dc = c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    # Step 3: means, weighting functions and the rotation term.
    l_bar = (l1 + l2) / 2
    c_bar = (c1p + c2p) / 2
    h_bar = h1p + h2p
    if c1p * c2p != 0:
        if abs(h1p - h2p) <= 180:
            h_bar /= 2
        elif h_bar < 360:
            h_bar = (h_bar + 360) / 2
        else:
            h_bar = (h_bar - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar**7 / (c_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar
    s_h = 1 + 0.015 * c_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    x, y, z = dl / s_l, dc / s_c, d_big_h / s_h
    return math.sqrt(max(0.0, x * x + y * y + z * z + r_t * y * z))


def _labs(colours: Mapping[str, str], mode: str) -> dict[str, Lab]:
    """Each named colour as seen in ``mode``, in Lab; a bad value is reported with its name."""
    labs = {}
    for name, value in colours.items():
        try:
            labs[name] = to_lab(simulate(value, mode))
        except ValueError as err:
            raise ValueError(f"colour {said(name)}: {err}") from None
    return labs


def _pairs(colours: Mapping[str, str], mode: str) -> list[Pair]:
    labs = _labs(colours, mode)
    return [Pair(a, b, mode, delta_e2000(labs[a], labs[b])) for a, b in combinations(labs, 2)]


def closest_pairs(colours: Mapping[str, str]) -> dict[str, Pair]:
    """For each mode, the pair of named colours that looks most alike (smallest ΔE00).

    Modes are omitted when there are fewer than two colours (nothing to confuse).
    """
    closest = {}
    for mode in MODES:
        pairs = _pairs(colours, mode)
        if pairs:
            closest[mode] = min(pairs, key=lambda p: p.delta_e)
    return closest


def confusable(colours: Mapping[str, str], threshold: float = DEFAULT_THRESHOLD) -> list[Pair]:
    """Every (pair, mode) whose ΔE00 is under ``threshold``, most alike first."""
    found = [p for mode in MODES for p in _pairs(colours, mode) if p.delta_e < threshold]
    return sorted(found, key=lambda p: (p.delta_e, MODES.index(p.mode), p.a, p.b))


def report(colours: Mapping[str, str], threshold: float = DEFAULT_THRESHOLD) -> list[str]:
    """One line per mode naming its closest pair, flagged when under ``threshold``."""
    closest = closest_pairs(colours)
    lines = []
    for mode in MODES:
        pair = closest.get(mode)
        if pair is None:
            lines.append(f"{mode}: fewer than two colours, nothing to compare")
            continue
        flag = f" (under {threshold:g}: hard to tell apart)" if pair.delta_e < threshold else ""
        lines.append(f"{mode}: closest {pair.a}/{pair.b} ΔE00 {pair.delta_e:.1f}{flag}")
    return lines
