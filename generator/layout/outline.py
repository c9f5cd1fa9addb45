"""The PDF outline (bookmarks) of a kit: every component on every page it appears.

A reader opening the kit on screen, or a player reprinting one lost card, looks for a
component by name: each one (and the contents and the rules) has an entry at the first page
showing it; one that spans several pages has a child entry for each of them, "page 7 (sheet 4,
front)", fronts and backs alike, so the pages to reprint are found without scrolling. Groups
come in the order they first appear. Computed once from the finished sheets, as the contents
page is, so the outline and the kit cannot disagree.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from generator.data.translation.i18n import message

from .page import OutlineEntry, Sheet


def kit_outline(sheets: Sequence[Sheet], names: Mapping[str, str]) -> tuple[OutlineEntry, ...]:
    """The outline of ``sheets``; ``names``: each component id's printed name."""
    groups: dict[str, list[tuple[int, int, str]]] = {}  # title -> (page, sheet, side) in order
    page_no = 0
    for sheet_no, sheet in enumerate(sheets, start=1):
        for page in sheet.pages:
            titles = [page.bookmark] if page.bookmark else []
            if page.content == "rules":
                titles.append(message("bookmark.rules"))
            order = list(names)  # on one page, components in the game's order
            ids = sorted({pl.component for pl in page.pieces},
                         key=lambda c: (order.index(c) if c in names else len(order), c))
            titles += [names.get(component, component) for component in ids]
            for title in dict.fromkeys(titles):
                groups.setdefault(title, []).append((page_no, sheet_no, page.side))
            page_no += 1
    entries: list[OutlineEntry] = []
    for title, pages in groups.items():
        entries.append(OutlineEntry(title, pages[0][0]))
        if len(pages) > 1:
            entries += [OutlineEntry(message("bookmark.page", page=page + 1, sheet=sheet,
                                             side=message(f"footer.{side}")), page, 1)
                        for page, sheet, side in pages]
    return tuple(entries)
