"""The kit's language is declared in the PDF (/Lang in the catalogue): screen readers and
viewers read a French kit as French, and an English kit as English."""
from __future__ import annotations

from pypdf import PdfReader


def test_each_kit_pdf_declares_its_language(kits):
    """The run's shared kits (conftest's ``kits``: build_pdf, as `pnp build` calls it)."""
    english, french = kits("moving-target"), kits("moving-target", lang="fr")
    assert english.pdf.name == "moving-target.pdf" and french.pdf.name == "moving-target.fr.pdf"
    assert PdfReader(english.pdf).trailer["/Root"]["/Lang"] == "en"
    assert PdfReader(french.pdf).trailer["/Root"]["/Lang"] == "fr"
