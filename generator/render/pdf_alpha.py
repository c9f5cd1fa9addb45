"""Translucent colours in the PDF: ReportLab's canvas, with the opacity states its forms use.

ReportLab sets a fill or stroke opacity as a named graphics state (``/gRLs0 gs``, an
ExtGState resource) and records the states a page or a form uses. A page lists them in its
resources; a form XObject does not (ReportLab 4: ``PDFFormXObject.format`` builds a form's
resources from fonts, procedure sets and XObjects only), so a translucent colour inside a
form, which is where every face and icon of a kit is drawn, names a state the viewer cannot
find (poppler: "ExtGState 'gRLs0' is unknown") and prints opaque or not at all.

``Canvas`` gives such a form the resources ReportLab would have made, plus its ExtGState.
A form without translucent colours is left exactly as ReportLab makes it, so opaque kits keep
their bytes.
"""
from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas


class Canvas(canvas.Canvas):
    """ReportLab's canvas whose forms keep the opacity states they use."""

    def _setXObjects(self, thing: Any) -> None:
        # Called by endForm after _setExtGState(form), as the last resource it sets.
        super()._setXObjects(thing)  # type: ignore[misc]  # in ReportLab, not in its stub
        state = getattr(thing, "ExtGState", None)
        if not (isinstance(thing, pdfdoc.PDFFormXObject) and state and not thing.Resources):
            return
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()  # as PDFFormXObject.format would
        if thing.hasImages:
            resources.allProcs()
        if thing.XObjects:
            resources.XObject = thing.XObjects  # type: ignore[attr-defined]  # set by kwds; stub lacks it
        resources.ExtGState = state  # type: ignore[attr-defined]  # as above
        thing.Resources = resources
