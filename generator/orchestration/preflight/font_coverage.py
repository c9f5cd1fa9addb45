"""Which of a project's own fonts the kit uses, and how much of the kit's text each covers.

A designer who drops a display font into ``fonts/`` wants to know, before printing, that it
has every character the cards set in it (accents, dashes, the euro sign...). The glyph check
(generator/orchestration/preflight/checks.py) reports each template line that sets a missing
character;
this adds one line per project font file used: the file, and how many of the distinct
characters the kit sets in it the font can draw, and a warning for a font whose licence
restricts embedding it in a PDF (generator/data/typefaces/sfnt.py reads the flag). The built-in
fonts are left out (they are chosen for the built-in kits, whose verify output stays as it was).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from generator.core import primitives as p
from generator.core.findings import Finding
from generator.core.words import said
from generator.data.typefaces import fonts
from generator.data.typefaces.project_fonts import FontFile

SHOWN = 12  # missing characters named in the line; the glyph findings name the rest


def texts(prims: Iterable[p.Primitive]) -> Iterable[tuple[str, str]]:
    """(font, text) of every line of text the primitives set."""
    for prim in prims:
        if isinstance(prim, p.Text):
            for _, _, line, font, _ in prim.runs():  # rich text: each run in its own font
                yield font, line


def coverage_findings(prim_lists: Iterable[Iterable[p.Primitive]]) -> list[Finding]:
    """One ok finding per project font file used: characters covered of those set in it;
    a warning after it when the font's licence restricts embedding."""
    used: dict[FontFile, set[str]] = defaultdict(set)
    for prims in prim_lists:
        for name, line in texts(prims):
            try:
                font = fonts.resolve(name)
            except fonts.FontError:
                continue  # reported where the template names it
            if not font.builtin:
                used[font].update(ch for ch in line if not ch.isspace())
    findings = []
    for font, chars in sorted(used.items(), key=lambda item: item[0].name.lower()):
        missing = fonts.missing_glyphs(font.name, "".join(chars))
        detail = (f"{font.shown()} has glyphs for {len(chars) - len(missing)} of the "
                  f"{len(chars)} characters the kit sets in it")
        if missing:
            more = "..." if len(missing) > SHOWN else ""
            detail += f"; none for {said(missing, SHOWN)}{more} (see the glyph findings)"
        findings.append(Finding(f"font {font.name}", True, detail))
        licence = fonts.licence_note(font.name)
        if licence:
            findings.append(Finding("pre-flight font licence", False,
                                    f"{font.shown()} {licence}", warn=True))
    return findings
