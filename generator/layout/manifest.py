"""The kit manifest: ``<id>.kit.json`` beside every PDF, written from the same sheets the PDF
renderer draws, so tests, cutting machines and print shops read the kit back instead of guessing.

Keys (documented in the README): kit, paper {name, w, h}, flip, duplex_safe, sheets, pages:
[{page, sheet, side, content, pieces: [{component, label, face, x, y, w, h, rotation}]}].
Lengths in millimetres from the page's top-left corner, rounded to 0.01 mm.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.core.atomic import atomic_path

from .page import Kit


def _mm(value: float) -> float:
    return round(value + 0.0, 2)


def manifest(kit: Kit) -> dict[str, Any]:
    pages = []
    number = 0
    for s, sheet in enumerate(kit.sheets, start=1):
        for page in sheet.pages:
            number += 1
            pieces = []
            for pl in page.pieces:
                x, y, w, h = pl.trim
                pieces.append({"component": pl.component, "label": pl.label, "face": pl.side,
                               "x": _mm(x), "y": _mm(y), "w": _mm(w), "h": _mm(h),
                               "rotation": pl.rotate % 360})
            pages.append({"page": number, "sheet": s, "side": page.side,
                          "content": page.content, "pieces": pieces})
    return {"kit": kit.game,
            "paper": {"name": kit.paper_name, "w": _mm(kit.paper.w), "h": _mm(kit.paper.h)},
            "flip": kit.flip, "duplex_safe": kit.duplex_safe, "sheets": len(kit.sheets),
            "pages": pages}


def manifest_path(pdf: Path) -> Path:
    return pdf.with_name(pdf.name.removesuffix(".pdf") + ".kit.json")


def write_manifest(kit: Kit, target: Path) -> None:
    """UTF-8 JSON, written to a temporary file and renamed, like the PDF."""
    text = json.dumps(manifest(kit), ensure_ascii=False, indent=1) + "\n"
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")
