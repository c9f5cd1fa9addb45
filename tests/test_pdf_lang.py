"""The kit's language is declared in the PDF (/Lang in the catalogue): screen readers and
viewers read a French kit as French, and an English kit as English."""
from __future__ import annotations

from pypdf import PdfReader

from generator.frontends.cli import main


def test_each_kit_pdf_declares_its_language(tmp_path):
    for lang in ("en", "fr"):
        assert main(["build", "moving-target", "--lang", lang, "--out", str(tmp_path)]) == 0
    folder = tmp_path / "moving-target"
    assert PdfReader(folder / "moving-target.pdf").trailer["/Root"]["/Lang"] == "en"
    assert PdfReader(folder / "moving-target.fr.pdf").trailer["/Root"]["/Lang"] == "fr"
