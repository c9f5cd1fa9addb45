"""What the studio shows, held in one object shared by the builder and the server's threads.

Pictures are named by their content: a face's name is a digest of its drawing, a page's a
digest of what is placed on it and its furniture. So after a save only what changed gets a
new name; the browser keeps every other picture (served ``immutable``), and the page swaps
in the new ones. A name is made into a PNG only when a browser asks for it (a page of 18
copies of one back renders that back once: generator/render/png_page.py's ``FaceImages``),
and the PNGs are kept in a table bounded by bytes.

``version`` counts what the browser must fetch again: a new drawing, its report, an error,
its fix. Server-Sent Events wait on ``changed`` (a condition) for it to move.
"""
from __future__ import annotations

import hashlib
import io
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.core.errors import shown
from generator.core.findings import Finding
from generator.core.primitives import Face
from generator.core.resources import Resources
from generator.frontends import app

if TYPE_CHECKING:
    from generator.frontends.app import Drawn, Page, PieceInfo, Placement

PAGE_DPI = 60  # a sheet in the browser: an A4 page is 496 x 702 pixels
FACE_DPI = 150  # a face in the gallery (about 2.5 times its size on a screen)
FACE_SUPERSAMPLE = 2  # smooth enough on a screen, a quarter of print's 3x canvas
MAX_PNG_BYTES = 64 * 1024 * 1024  # pictures kept made; the rest are made again when asked
MAX_NAMES = 20_000  # picture names known (each a recipe holding a drawing)


def digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


@dataclass(frozen=True)
class Recipe:
    """How to make one picture: a face at the gallery's resolution, or a whole page."""

    resources: Resources
    face: Face | None = None
    page: Page | None = None


class Pictures:
    """Picture names to recipes, and the PNGs made from them (least recently used out)."""

    def __init__(self, max_bytes: int = MAX_PNG_BYTES) -> None:
        self.recipes: OrderedDict[str, Recipe] = OrderedDict()
        self.made: OrderedDict[str, bytes] = OrderedDict()
        self.max_bytes = max_bytes
        self.held = 0
        self.lock = threading.Lock()  # the tables
        self.drawing = threading.Lock()  # one picture drawn at a time: fonts, caches
        self.faces = app.face_pictures()
        self.renders = 0  # pictures made (tests read it: a count, not a time)
        self.face_names: dict[int, tuple[Face, str]] = {}
        self.current: set[str] = set()  # the names of the drawing being published
        self.previous: set[str] = set()  # ...and of the one before it

    def face_name(self, face: Face) -> str:
        seen = self.face_names.get(id(face))
        if seen is not None and seen[0] is face:
            return seen[1]
        name = "f" + digest(repr(face))
        self.face_names[id(face)] = (face, name)
        return name

    def add_face(self, face: Face, resources: Resources) -> str:
        name = self.face_name(face)
        self._add(name, Recipe(resources, face=face))
        return name

    def add_page(self, page: Page, resources: Resources) -> str:
        placed = "|".join(f"{self.face_name(pl.face)}:{_where(pl)}" for pl in page.placements)
        name = "p" + digest(f"{page.size}|{placed}|{page.furniture!r}")
        self._add(name, Recipe(resources, page=page))
        return name

    def _add(self, name: str, recipe: Recipe) -> None:
        with self.lock:
            self.recipes[name] = recipe
            self.recipes.move_to_end(name)
            self.current.add(name)
            while len(self.recipes) > MAX_NAMES:
                old, _ = self.recipes.popitem(last=False)
                self._forget(old)

    def begin(self) -> None:
        """A new drawing is being named: the id-keyed name table is dropped (its faces are
        new objects)."""
        self.face_names.clear()
        self.current = set()

    def settle(self) -> None:
        """The new drawing is named: recipes are kept for it and for the one before (a page
        still showing it may ask for its pictures a moment longer), and dropped for older
        ones, so a long session holds two drawings, not every drawing it has shown. Pictures
        already made stay in their table, bounded by bytes, for an edit that is undone."""
        with self.lock:
            keep = self.current | self.previous
            for name in [n for n in self.recipes if n not in keep]:
                del self.recipes[name]
            self.previous = self.current

    def png(self, name: str) -> bytes | None:
        """The PNG named ``name``, made now if need be; None for a name never given out.
        A picture already made is handed out at once, even while another is being drawn
        (the table's lock is held only to look and to store); drawing is one at a time
        (fonts and caches are shared), and a picture two requests wait for is drawn once."""
        with self.lock:
            found = self._made(name)
            recipe = self.recipes.get(name)
        if found is not None or recipe is None:
            return found
        with self.drawing:
            with self.lock:
                found = self._made(name)
            if found is not None:
                return found
            if recipe.face is not None:
                image = self.faces.image(recipe.face, FACE_DPI, FACE_SUPERSAMPLE,
                                         resources=recipe.resources)
            else:
                assert recipe.page is not None
                image = app.page_picture(recipe.page, PAGE_DPI, recipe.resources, self.faces)
            out = io.BytesIO()
            image.save(out, format="PNG", compress_level=1)
            data = out.getvalue()
            with self.lock:
                self.renders += 1
                self.made[name] = data
                self.held += len(data)
                while self.held > self.max_bytes and len(self.made) > 1:
                    _, dropped = self.made.popitem(last=False)
                    self.held -= len(dropped)
            return data

    def _made(self, name: str) -> bytes | None:
        found = self.made.get(name)
        if found is not None:
            self.made.move_to_end(name)
        return found

    def _forget(self, name: str) -> None:
        dropped = self.made.pop(name, None)
        if dropped is not None:
            self.held -= len(dropped)


def _where(pl: Placement) -> str:
    return f"{pl.x:.3f},{pl.y:.3f},{pl.clip},{pl.rotate},{pl.round}"


class Studio:
    """The shared state: the last good drawing as JSON, the error of the last save if it
    failed, the version, and the pictures."""

    def __init__(self, title: str, flip: str) -> None:
        self.changed = threading.Condition()
        self.version = 0
        self.closing = False
        self.title = title
        self.flip = flip
        self.pictures = Pictures()
        self.drawing: dict[str, Any] | None = None  # the last good drawing, as the page reads it
        self.report: list[dict[str, Any]] = []
        self.play: dict[str, Any] | None = None
        self.charts: list[bytes] = []
        self.error: dict[str, Any] | None = None
        self.building = True
        self.builds = 0  # successful drawings published
        self.written: tuple[int, bytes] = (-1, b"")  # the state as last written, by version

    # -- what the builder tells -----------------------------------------------------------
    def publish(self, drawn: Drawn) -> None:
        """A new drawing (its report follows): pictures named, error cleared."""
        self.pictures.begin()
        state = drawing_state(drawn, self.pictures)
        self.pictures.settle()
        with self.changed:
            self.drawing = state
            self.title = drawn.title
            self.error = None
            self.builds += 1
            self._bump()

    def publish_report(self, drawn: Drawn) -> None:
        rows = report_rows(drawn.findings, drawn.pieces)
        with self.changed:
            self.report = rows
            self.building = False
            self._bump()

    def publish_play(self, text: str, charts: list[bytes], failed: bool = False) -> None:
        """The balance report of a simulation and its charts (``chart(k)``); ``failed``: the
        text is the engine's error (``status`` says so, not "up to date")."""
        with self.changed:
            self.charts = charts
            self.play = {"text": text, "charts": len(charts), "made": self.version + 1,
                         "error": failed}
            self._bump()

    def chart(self, number: int) -> bytes | None:
        with self.changed:
            return self.charts[number] if 0 <= number < len(self.charts) else None

    def fail(self, lines: list[str], where: str) -> None:
        """A save that does not build: shown over the last good drawing until the next."""
        with self.changed:
            self.error = {"lines": lines, "where": where}
            self.building = False
            self._bump()

    def started(self) -> None:
        with self.changed:
            self.building = True
            self._bump()

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()

    def _bump(self) -> None:
        self.version += 1
        self.changed.notify_all()

    # -- what the server reads ------------------------------------------------------------
    def state(self) -> bytes:
        """The state as JSON in ASCII: a lone surrogate a project's YAML may hold ("\\ud800")
        has no UTF-8 and would fail every answer; escaped, the page's JSON.parse reads it."""
        with self.changed:
            if self.written[0] != self.version:  # written once per version, not per request
                self.written = (self.version, json.dumps(
                    {"version": self.version, "title": self.title, "flip": self.flip,
                     "building": self.building, "status": self.status(),
                     "failed": self.failed(), "error": self.error,
                     "drawing": self.drawing, "report": self.report, "play": self.play},
                    ensure_ascii=True).encode("ascii"))
            return self.written[1]

    def failed(self) -> bool:
        """Whether the last save failed to build or the last play met an engine error."""
        return self.error is not None or bool(self.play and self.play.get("error"))

    def status(self) -> str:
        """The status bar's words (the page shows them as they are): never "up to date"
        while the last play of the game met an engine error, which is otherwise seen only
        by opening Play. Called with ``changed`` held."""
        if self.building:
            return "building…"
        if self.error is not None:
            return "error"
        if self.play and self.play.get("error"):
            first = next((line for line in str(self.play["text"]).splitlines() if line), "")
            return f"engine error (Play): {first}"
        return f"up to date (v{self.version})"

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it is past ``seen`` (or after ``timeout``: a keep-alive)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != seen or self.closing, timeout)
            return self.version


def piece_key(component: str, label: str) -> str:
    return f"{component}\u241f{label}"


def _box(pl: Placement) -> dict[str, float]:
    x, y, w, h = pl.trim
    return {"x": round(x, 2), "y": round(y, 2), "w": round(w, 2), "h": round(h, 2)}


def _template(face: Face | None) -> dict[str, Any] | None:
    if face is None:
        return None
    return {"file": shown(face.template), "lines": list(app.template_lines(face))}


def _info(info: PieceInfo) -> dict[str, Any]:
    return {"component": info.component, "component_name": info.component_name,
            "label": info.label, "copies": info.copies, "total": info.total,
            "data": info.data, "front": _template(info.front), "back": _template(info.back),
            "boxes": []}


def drawing_state(drawn: Drawn, pictures: Pictures) -> dict[str, Any]:
    """The drawing as the page reads it: sheets of pages (a picture and its pieces' boxes),
    faces by component, and what each piece is."""
    pieces = {piece_key(*key): _info(info) for key, info in drawn.pieces.items()}
    sheets = []
    number = 0
    for s, sheet in enumerate(drawn.kit.sheets, start=1):
        sides: dict[str, Any] = {}
        for page in sheet.pages:
            number += 1
            placed = []
            for pl in page.pieces:
                key = piece_key(pl.component, pl.label)
                if key not in pieces:  # a board's tile: the board's own entry
                    key = piece_key(pl.component, "")
                box = _box(pl)
                placed.append({"key": key, "side": pl.side, "label": pl.label, **box})
                if key in pieces:
                    pieces[key]["boxes"].append({"page": number, "side": pl.side, **box})
            sides[page.side] = {"page": number, "content": page.content,
                                "picture": pictures.add_page(page, drawn.resources),
                                "w": page.size.w, "h": page.size.h, "pieces": placed}
        sheets.append({"sheet": s, **sides})
    components = []
    for comp in drawn.components:
        faces = [{"key": piece_key(comp.id, group.label), "label": group.front.label or
                  group.label, "copies": group.copies,
                  "front": pictures.add_face(group.front, drawn.resources),
                  "back": pictures.add_face(group.back, drawn.resources) if group.back
                  else None,
                  # the pictures hold the bleed: their size on screen, in mm
                  "w": group.front.w + 2 * group.front.bleed,
                  "h": group.front.h + 2 * group.front.bleed} for group in comp.faces]
        components.append({"id": comp.id, "name": comp.name, "kind": comp.kind,
                           "total": comp.total, "faces": faces})
    return {"game": drawn.game_id, "title": drawn.title, "sheets": sheets,
            "components": components, "pieces": pieces,
            "failing": [f.line().strip() for f in drawn.failing]}


def report_rows(findings: list[Finding], pieces: dict[tuple[str, str], PieceInfo]
                ) -> list[dict[str, Any]]:
    """The report as table rows, each with the pieces it names: those whose face label it
    lists (pre-flight), or whose data row is where it points (a composition check)."""
    by_label: dict[str, list[str]] = {}
    by_row: dict[str, list[str]] = {}
    for key, info in pieces.items():
        by_label.setdefault(info.face_label, []).append(piece_key(*key))
        by_row.setdefault(info.row, []).append(piece_key(*key))
    rows = []
    for f in findings:
        named = [k for label in f.pieces for k in by_label.get(label, [])]
        if not named and f.where and not f.ok:
            named = by_row.get(f.where, [])
        rows.append({"status": "ok" if f.ok else ("warn" if f.warn else "fail"),
                     "basis": f.basis, "check": f.check, "detail": f.detail,
                     "where": f.where if not f.ok else "", "pieces": named})
    return rows

