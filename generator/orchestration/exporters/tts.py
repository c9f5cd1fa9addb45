"""Tabletop Simulator export: a kit as a TTS saved object, for playtesting on a virtual table.

``output/<id>/tts/<id>.json`` (``tts.<lang>/`` for another language) and the images it names,
written into a fresh folder and swapped in whole (generator/core/atomic.py). The faces are the
kit's own, drawn by the build (``drawing.render_faces``) and rasterised by the PNG export
(``export.write_all``): nothing is drawn a second way. Pieces map onto TTS objects so:

* cards, and player aids of a card's shape: a ``DeckCustom`` (a lone ``Card`` for a component
  of one copy), its distinct faces on custom-deck sheets of at most 10 x 7 slots and at least
  2 rows (TTS cuts a one-row sheet wrong). TTS reads a sheet's last slot as the "hidden" card
  shown for cards in another player's hand, so a sheet holds at most 69 faces and its last
  slot shows the back. Each sheet is one ``CustomDeck`` entry with a key (1, 2, ...), and a
  card's ``CardID`` is ``key * 100 + its slot`` (``DeckIDs`` lists every copy's). The back is
  one image, or a sheet of backs in the same slots (``UniqueBack``) when the backs differ.
  TTS draws every custom card on its own card shape (a poker card's, or a square for square
  slots) whatever the image, so a card of another shape (Fløe's 56 x 162 mm scooters) is
  scaled on each axis to its own size (``card_scale``): one sheet set per component, one
  shape per sheet;
* player aids of another shape (a score pad): a ``Custom_Tile`` per copy, which TTS draws at
  its image's aspect (``Stretch`` off);
* one-sided tokens: a ``Custom_Token`` per copy (a round token's image masked to its circle);
* tiles, and tokens with a back: a ``Custom_Tile`` per copy, front and back images (``Type``
  2, a circle, for round pieces), at the image's aspect;
* the copies of one token face: in a ``Bag`` (a supply to draw from), one bag per face;
* boards: a ``Custom_Board``;
* rules pages: a ``Custom_PDF`` of those pages (``<component>.pdf``, vector, as printed);
* dice nets and printed sheets are left out (the command says so).

Images are named by component id and number, never by label (a label is the ``Nickname``).
URLs are ``file:///`` URLs of the written images (TTS on this computer), or ``--base-url``
plus the image's path in the folder (the folder uploaded to a web host). Same input, same
bytes: keys sorted, no dates, GUIDs from a hash of each object's place in the kit.

Sizes: a TTS unit is an inch; a card at scale 1 is a poker card (63.5 x 88.9 mm), a tile,
token, board or PDF at scale 1 is an inch wide, its height following its image's aspect.
``--dpi`` sets the images' resolution (150 by default).

Bounded for a stranger's project: every image's longer side at most ``MAX_SIDE_PX`` (the
resolution drops for big pieces), at most ``MAX_IMAGES`` images and ``MAX_OBJECTS`` objects.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from PIL import Image, ImageDraw

from generator.core import context
from generator.core.atomic import atomic_dir, atomic_file, output_lock
from generator.core.errors import InputError
from generator.core.model import Component
from generator.core.primitives import Face
from generator.core.words import said
from generator.data import load_game
from generator.data.design.resources import load_resources
from generator.data.translation import i18n
from generator.layout.page import drawn
from generator.layout.single import single_pages
from generator.orchestration.composition import check_composition
from generator.orchestration.drawing import faces_key, game_theme, render_faces
from generator.orchestration.export import DPI_RANGE, Drawing, drawing, write_all
from generator.orchestration.naming import kit_name, kit_title
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf

DPI = 150  # the default: enough for a card read on screen; big pieces get less (MAX_SIDE_PX)
MAX_SIDE_PX = 4096  # an image's longest side: what any TTS install loads; 48 MB a sheet
COLS, ROWS = 10, 7  # a TTS custom-deck sheet's largest grid
PER_SHEET = COLS * ROWS - 1  # the last slot is the hidden card's
MAX_IMAGES = 1000
MAX_OBJECTS = 5000
MM_PER_INCH = 25.4
DECKS = ("card", "aid")
LEFT_OUT = ("die", "sheet")
CARD_MM = (63.5, 88.9)  # a TTS card at scale 1: a poker card (a square one for square slots)
SHAPE_TOLERANCE = 0.01  # an aspect this close to a card's is drawn as that card
CARD_TYPE = {"rect": 0, "round": 4}  # TTS card types: 0 rounded rectangle, 4 circle
TILE_TYPE = {"rect": 0, "round": 2}  # TTS tile types: 0 box, 2 circle
THICKNESS = 0.2
PDF_GAP = 1.0  # TTS units between the rules and the pieces
GAP = 0.5  # TTS units (inches) between pieces laid out on the table


def checked_base_url(url: str | None) -> str | None:
    """``--base-url``: an http(s) URL with a host, no query, fragment, spaces or control
    characters (it is written into every image URL); its path ends with ``/``."""
    if url is None:
        return None
    shown = url[:80] + ("..." if len(url) > 80 else "")
    if not url or len(url) > 2000 or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127
                                         for ch in url):
        raise InputError(f"--base-url: expected an http:// or https:// URL without spaces "
                         f"(got {said(shown)})")
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise InputError(f"--base-url: expected an http:// or https:// URL with a host, where "
                         f"the tts folder is uploaded (got {said(shown)})")
    if parts.query or parts.fragment or "?" in url or "#" in url:
        raise InputError(f"--base-url: expected a folder's URL, without ? or # (got {said(shown)})")
    return url if url.endswith("/") else url + "/"


@dataclass(frozen=True)
class Distinct:
    """One distinct face of a component (front and back), how many copies the kit has and
    each copy's label."""

    front: Face
    back: Face | None
    labels: tuple[str, ...]


def distinct_faces(fronts: list[Face], backs: list[Face] | None) -> list[Distinct]:
    """The component's faces as TTS needs them: each distinct (front, back) drawing once
    (``export.drawing``: two player aids labelled 1 and 2 but drawn the same are one image),
    in kit order, with its copies' labels."""
    order: dict[tuple[Drawing, Drawing | None], tuple[Face, Face | None, list[str]]] = {}
    for i, front in enumerate(fronts):
        back = backs[i] if backs else None
        key = (drawing(front), None if back is None else drawing(back))
        order.setdefault(key, (front, back, []))[2].append(front.label)
    return [Distinct(f, b, tuple(labels)) for f, b, labels in order.values()]


def dpi_for(w_mm: float, h_mm: float, cols: int = 1, rows: int = 1, dpi: int = DPI) -> int:
    """``dpi``, or less to keep an image of ``cols`` x ``rows`` faces within MAX_SIDE_PX."""
    longest = max(cols * w_mm, rows * h_mm) / MM_PER_INCH
    return max(1, min(dpi, math.floor((MAX_SIDE_PX - cols - rows) / longest)))


def grid(n: int) -> tuple[int, int]:
    """Columns and rows of a sheet of ``n`` faces (at most PER_SHEET) with a free last slot:
    at least 2 rows, as TTS reads a custom deck's sheet (a one-row sheet's cards come out
    cut from the wrong rows), so a short deck is two half rows."""
    slots = n + 1
    cols = min(COLS, math.ceil(slots / 2))
    return cols, max(2, math.ceil(slots / cols))


def square(w_mm: float, h_mm: float) -> bool:
    return abs(h_mm / w_mm - 1) <= SHAPE_TOLERANCE


def card_shaped(w_mm: float, h_mm: float) -> bool:
    """Whether TTS draws a card of this size at its own aspect: a poker card's (portrait)
    or a square."""
    return square(w_mm, h_mm) or abs((h_mm / w_mm) / (CARD_MM[1] / CARD_MM[0]) - 1) <= \
        SHAPE_TOLERANCE


def card_scale(w_mm: float, h_mm: float) -> tuple[float, float]:
    """The (x, z) scale that makes TTS's card (``CARD_MM`` at scale 1, a square for square
    slots) ``w_mm`` x ``h_mm``: equal for a poker card's shape, each axis its own otherwise."""
    base_w, base_h = (CARD_MM[0], CARD_MM[0]) if square(w_mm, h_mm) else CARD_MM
    return w_mm / base_w, h_mm / base_h


@dataclass(frozen=True)
class Sheet:
    """An image composed of rasterised faces: ``cols`` x ``rows`` cells of the size of
    ``sized`` (a face image), ``cells`` in reading order ("": left white), ``hidden`` in the
    last slot when it is free (the back, as TTS shows a hidden card)."""

    cols: int
    rows: int
    cells: tuple[str, ...]
    hidden: str | None
    sized: str


@dataclass
class Plan:
    """What the export will write: faces to rasterise, sheets to compose, rules PDFs to
    write, objects to save."""

    folder: Path
    base_url: str | None
    dpi: int
    pdfs: dict[str, list[Face]]  # PDF name in the folder -> its pages' faces
    renders: dict[str, tuple[Face, int]]  # image path in the folder -> face, dpi
    sheets: dict[str, Sheet]  # image name in the folder -> how it is composed
    masked: set[str]  # images cut to their circle (one-sided round tokens)
    objects: list[dict[str, Any]]
    guids: set[str]
    left_out: list[str]

    def url(self, name: str) -> str:
        if self.base_url is not None:
            return self.base_url + quote(name)
        return Path(os.path.abspath(self.folder / name)).as_uri()

    def guid(self, *key: object) -> str:
        """A stable GUID: six hex digits of a hash of the object's place in the kit."""
        salt = 0
        while True:
            text = "/".join(map(str, (*key, salt) if salt else key))
            guid = hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]
            if guid not in self.guids:
                self.guids.add(guid)
                return guid
            salt += 1

    def render(self, name: str, face: Face, dpi: int) -> str:
        self.renders.setdefault(name, (face, dpi))
        if len(self.renders) + len(self.sheets) > MAX_IMAGES:
            raise InputError(f"tts: more than {MAX_IMAGES} images for one kit")
        return name


def transform(x: float, z: float, scale: float, face_down: bool = False,
              scale_z: float | None = None) -> dict[str, float]:
    """Where an object lies; ``scale_z`` (default ``scale``) for a card of its own shape."""
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0,
            "scaleZ": round(scale if scale_z is None else scale_z, 4)}


def base_object(name: str, guid: str, nickname: str, description: str,
                where: dict[str, float]) -> dict[str, Any]:
    return {"Name": name, "GUID": guid, "Nickname": nickname, "Description": description,
            "Transform": where, "Locked": False, "Grid": True, "Snap": True, "Tooltip": True,
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}}


def plan_deck(plan: Plan, comp: Component, faces: list[Distinct], x: float, key0: int,
              title: str) -> int:
    """A deck's sheets and its DeckCustom (or lone Card); returns the next free deck key."""
    w, h = faces[0].front.w, faces[0].front.h
    scale = card_scale(w, h)
    unique_back = len({d.back for d in faces}) > 1
    cards: list[dict[str, Any]] = []
    custom: dict[str, dict[str, Any]] = {}
    key = key0
    for start in range(0, len(faces), PER_SHEET):
        chunk = faces[start:start + PER_SHEET]
        cols, rows = grid(len(chunk))
        dpi = dpi_for(w, h, cols, rows, plan.dpi)
        sheet = f"{comp.id}-{key - key0 + 1:02d}.png"
        cells = [plan.render(f"faces/{comp.id}/{start + i + 1:04d}-front.png", d.front, dpi)
                 for i, d in enumerate(chunk)]
        back_cells = [plan.render(f"faces/{comp.id}/{start + i + 1:04d}-back.png", d.back, dpi)
                      if d.back is not None else "" for i, d in enumerate(chunk)]
        hidden = back_cells[0] or None  # no back drawn: a white one, face down shows nothing
        plan.sheets[sheet] = Sheet(cols, rows, tuple(cells), hidden, cells[0])
        if unique_back:
            back = f"{comp.id}-{key - key0 + 1:02d}-back.png"
            plan.sheets[back] = Sheet(cols, rows, tuple(back_cells), hidden, cells[0])
        else:
            back = f"{comp.id}-back.png"
            plan.sheets[back] = Sheet(1, 1, (hidden or "",), None, cells[0])
        entry = {"FaceURL": plan.url(sheet), "BackURL": plan.url(back), "NumWidth": cols,
                 "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique_back,
                 "Type": CARD_TYPE[comp.shape]}
        custom[str(key)] = entry
        for slot, d in enumerate(chunk):
            for copy, label in enumerate(d.labels):
                card_id = key * 100 + slot
                cards.append({**base_object("Card", plan.guid(comp.id, "card", start + slot,
                                                              copy),
                                            label, comp.name,
                                            transform(x, 0.0, scale[0], True, scale[1])),
                              "CardID": card_id, "CustomDeck": {str(key): entry},
                              "SidewaysCard": False, "Hands": True})
        key += 1
    if len(cards) == 1:
        plan.objects.append(cards[0])
    else:
        plan.objects.append({**base_object("DeckCustom", plan.guid(comp.id, "deck"), title,
                                           comp.name,
                                           transform(x, 0.0, scale[0], True, scale[1])),
                             "DeckIDs": [card["CardID"] for card in cards],
                             "CustomDeck": custom, "ContainedObjects": cards,
                             "SidewaysCard": False, "Hands": False})
    return key


def plan_pieces(plan: Plan, comp: Component, faces: list[Distinct], x: float) -> None:
    """Tokens, tiles, boards and player aids of no card's shape: one object per copy, laid
    out in rows of ten, each at its own size and aspect; a token face's copies in a bag."""
    w, h = faces[0].front.w, faces[0].front.h
    dpi = dpi_for(w, h, dpi=plan.dpi)
    one_sided = comp.kind == "token" and all(d.back is None for d in faces)
    n = 0
    for index, d in enumerate(faces, start=1):
        front = plan.render(f"{comp.id}/{index:04d}-front.png", d.front, dpi)
        back = (plan.render(f"{comp.id}/{index:04d}-back.png", d.back, dpi)
                if d.back is not None else front)
        if one_sided and comp.shape == "round":
            plan.masked.add(front)
        bagged = comp.kind == "token" and len(d.labels) > 1
        pieces = []
        for copy, label in enumerate(d.labels):
            where = transform(x + (n % 10) * (w / MM_PER_INCH + GAP),
                              -(n // 10) * (h / MM_PER_INCH + GAP), w / MM_PER_INCH)
            guid = plan.guid(comp.id, comp.kind, index, copy)
            if comp.kind == "board":
                image = {"ImageURL": plan.url(front), "ImageSecondaryURL": "",
                         "ImageScalar": 1.0, "WidthScale": 0.0}
                obj = {**base_object("Custom_Board", guid, label, comp.name, where),
                       "CustomImage": image}
            elif one_sided:
                image = {"ImageURL": plan.url(front), "ImageSecondaryURL": "",
                         "ImageScalar": 1.0, "WidthScale": 0.0,
                         "CustomToken": {"Thickness": THICKNESS, "MergeDistancePixels": 15.0,
                                         "StandUp": False, "Stackable": True}}
                obj = {**base_object("Custom_Token", guid, label, comp.name, where),
                       "CustomImage": image}
            else:  # Stretch off: the tile takes its image's aspect, not a square's
                image = {"ImageURL": plan.url(front), "ImageSecondaryURL": plan.url(back),
                         "ImageScalar": 1.0, "WidthScale": 0.0,
                         "CustomTile": {"Type": TILE_TYPE[comp.shape], "Thickness": THICKNESS,
                                        "Stackable": True, "Stretch": False}}
                obj = {**base_object("Custom_Tile", guid, label, comp.name, where),
                       "CustomImage": image}
            pieces.append(obj)
            if not bagged or copy == 0:
                n += 1
        if bagged:  # one bag per face, where its first copy would lie
            bag = {**base_object("Bag", plan.guid(comp.id, "bag", index), d.labels[0],
                                 comp.name, {**pieces[0]["Transform"], "scaleX": 1.0,
                                             "scaleZ": 1.0}),
                   "Bag": {"Order": 0}, "ContainedObjects": pieces}
            plan.objects.append(bag)
        else:
            plan.objects.extend(pieces)


def plan_pdf(plan: Plan, comp: Component, fronts: list[Face], x: float) -> None:
    """Rules pages as one ``Custom_PDF``: the pages as the kit prints them, vector, in
    ``<component>.pdf``; at scale 1 a page is an inch wide."""
    name = f"{comp.id}.pdf"
    plan.pdfs[name] = fronts
    w = fronts[0].w
    obj = {**base_object("Custom_PDF", plan.guid(comp.id, "pdf"), comp.name, comp.name,
                         transform(x, 0.0, w / MM_PER_INCH)),
           "CustomPDF": {"PDFUrl": plan.url(name), "PDFPassword": "", "PDFPage": 0,
                         "PDFPageOffset": 0}}
    plan.objects.append(obj)


def write_pdfs(staging: Path, plan: Plan, title: str) -> None:
    """Each rules PDF: a page per rules face, trimmed to it, drawn as the kit draws it."""
    for name, faces in sorted(plan.pdfs.items()):
        pages = single_pages(faces, None, 0.0)
        write_pdf(pages, staging / name, title=title, resources=load_resources(drawn(pages)))


def compose(staging: Path, plan: Plan) -> None:
    """Each sheet from the rasterised faces (every face of a sheet has one size, so a sheet
    is exactly its grid times a face); round one-sided tokens cut to their circle."""
    for name, spec in sorted(plan.sheets.items()):
        with Image.open(staging / spec.sized) as first:
            fw, fh = first.size
        cols, rows = spec.cols, spec.rows
        sheet = Image.new("RGB", (cols * fw, rows * fh), "white")
        slots = [*spec.cells] + [""] * (cols * rows - len(spec.cells))
        if spec.hidden and len(spec.cells) < cols * rows:
            slots[-1] = spec.hidden
        for i, cell in enumerate(slots):
            if not cell:
                continue
            with Image.open(staging / cell) as image:
                if image.size != (fw, fh):  # never: one component, one size, one dpi
                    raise InputError(f"tts: {cell} is {image.size}, not {(fw, fh)}")
                sheet.paste(image.convert("RGB"), ((i % cols) * fw, (i // cols) * fh))
        with atomic_file(staging / name) as out:
            sheet.save(out, format="PNG", compress_level=6)
    for name in sorted(plan.masked):
        with Image.open(staging / name) as image:
            rgba = image.convert("RGBA")
        mask = Image.new("L", rgba.size, 0)
        ImageDraw.Draw(mask).ellipse((0, 0, rgba.width - 1, rgba.height - 1), fill=255)
        rgba.putalpha(mask)
        with atomic_file(staging / name) as out:
            rgba.save(out, format="PNG", compress_level=6)


def export_tts(game_id: str, opts: BuildOptions, base_url: str | None = None,
               jobs: int = 2, dpi: int = DPI) -> tuple[Path, int, list[str]]:
    """Write the saved object and its images (at ``dpi``, less for a piece whose image would
    pass MAX_SIDE_PX); returns the JSON's path, the number of objects on the table and the
    components left out."""
    base = checked_base_url(base_url)
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise InputError(f"--dpi: expected a whole number from {DPI_RANGE[0]} to "
                         f"{DPI_RANGE[1]} (got {dpi})")
    with context.building():
        game = load_game(game_id)
        name = "tts" + ("" if opts.lang == i18n.SOURCE else f".{opts.lang}")
        folder = opts.out_dir / game.id / name
        plan = Plan(folder, base, dpi, {}, {}, {}, set(), [], set(), [])
        with i18n.session(game, opts.lang):
            check_composition(game, opts.force)
            theme = game_theme(game, opts)
            shared = faces_key(game, theme, opts)
            x, key = 0.0, 1
            for comp in game.components:
                if comp.kind in LEFT_OUT or not comp.items:
                    plan.left_out.append(comp.id)
                    continue
                if sum(item.count for item in comp.items) > MAX_OBJECTS:
                    raise InputError(f"tts: {comp.id} has more than {MAX_OBJECTS} pieces")
                fronts, backs = render_faces(game, comp, theme, opts, shared)
                faces = distinct_faces(fronts, backs)
                # Named on the table (Nickname, Description) in the kit's language.
                comp = dataclasses.replace(comp, name=kit_name(game, comp))
                if comp.kind == "rules":
                    plan_pdf(plan, comp, fronts, x)
                    x += fronts[0].w / MM_PER_INCH + PDF_GAP
                elif comp.kind in DECKS and (comp.kind == "card" or card_shaped(
                        faces[0].front.w, faces[0].front.h)):
                    key = plan_deck(plan, comp, faces, x, key, comp.name)
                    x += faces[0].front.w / MM_PER_INCH + 2 * GAP
                else:
                    plan_pieces(plan, comp, faces, x)
                    per_row = min(10, len(fronts))
                    x += per_row * (faces[0].front.w / MM_PER_INCH + GAP) + GAP
                if len(plan.objects) > MAX_OBJECTS or key > 9999:
                    raise InputError(f"tts: more than {MAX_OBJECTS} objects for one kit")
            title = kit_title(game)
        save = saved_object(title, plan.objects)
        with output_lock(folder.parent), atomic_dir(folder) as staging:
            write_all([(face, str(staging / image), dpi)
                       for image, (face, dpi) in plan.renders.items()], jobs, bleed=0.0)
            compose(staging, plan)
            write_pdfs(staging, plan, title)
            shutil.rmtree(staging / "faces", ignore_errors=True)  # in the sheets now
            with atomic_file(staging / f"{game.id}.json") as out:
                out.write(save)
    return folder / f"{game.id}.json", len(plan.objects), plan.left_out


def saved_object(title: str, objects: list[dict[str, Any]]) -> bytes:
    """The file TTS loads (Saves/Saved Objects/): its objects, keys sorted, no date; named
    by the game's ``title`` in the kit's language."""
    save = {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
            "ObjectStates": objects}
    return (json.dumps(save, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode()
