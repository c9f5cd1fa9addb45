"""PNG export: every distinct face of a kit as its own PNG, rendered on all cores."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from generator.core import children, context
from generator.core.atomic import (
    atomic_dir,
    atomic_file,
    drop_inherited_locks,
    fit_name,
    make_folder,
    output_lock,
)
from generator.core.csvout import csv_text
from generator.core.model import Component, Game
from generator.core.primitives import Face
from generator.core.progress import Progress
from generator.core.resources import Resources, needs
from generator.data import load_game
from generator.data.design.resources import load_resources
from generator.data.design.themes import Theme
from generator.data.translation import i18n
from generator.orchestration.composition import check_composition
from generator.orchestration.drawing import faces_key, game_theme, render_faces
from generator.orchestration.options import BuildOptions
from generator.render.png import write_png


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "face"


@dataclass(frozen=True)
class Preset:
    """A print shop's image format: resolution and bleed around the trim."""

    name: str
    dpi: int
    bleed: float  # mm each side
    about: str


PRESETS = {
    "default": Preset("default", 300, 3.175, "300 dpi with 1/8 in bleed"),
    # The Game Crafter: poker 825 x 1125 px = (63.5 + 2 x 3.175) mm at 300 dpi.
    "tgc": Preset("tgc", 300, 3.175, "The Game Crafter: 300 dpi, 1/8 in bleed (poker 825x1125)"),
    # MakePlayingCards: poker 822 x 1122 px = 36 px (3.048 mm) of bleed a side at 300 dpi.
    "mpc": Preset("mpc", 300, 3.048, "MakePlayingCards: 300 dpi, 36 px bleed (poker 822x1122)"),
}

Job = tuple[Face, list[str], int, float, Resources]


def _job(args: Job) -> int:
    """Render a face once and save it under each of its names (a shared back is drawn once)."""
    face, targets, dpi, bleed, resources = args
    first = write_png(face, Path(targets[0]), dpi, bleed=bleed, resources=resources)
    for target in targets[1:]:
        with open(first, "rb") as source, atomic_file(Path(target)) as out:
            shutil.copyfileobj(source, out)
    return len(targets)


LONGEST_SUFFIX = "-front.png"  # of a PNG's name: the stem is cut so the longest fits


Drawing = tuple[float, float, float, tuple[object, ...]]


def drawing(face: Face) -> Drawing:
    """What a face's image shows: its size, bleed and primitives, not its label. Two faces
    that draw the same (a deck's back on every card, four copies of one player aid labelled
    1 to 4, decks sharing a back) are one image."""
    return face.w, face.h, face.bleed, face.prims


@dataclass(frozen=True)
class PngFile:
    """One PNG of the set: the face drawn in it, where, at what resolution."""

    face: Face
    target: str
    dpi: int


@dataclass(frozen=True)
class OrderLine:
    """One line of a print shop's order: a piece's front image, its back image (None: one
    sided), and how many of that piece the kit has."""

    front: PngFile
    back: PngFile | None
    component: str
    label: str
    copies: int


Rendered = tuple[Component, list[Face], list[Face] | None]


def order_lines(rendered: list[Rendered], folder: Path, dpi: int) -> list[OrderLine]:
    """The kit's distinct pieces (a front and its back, each drawn the same) in kit order,
    copies counted across components, and one file per distinct drawing: a face that draws
    the same as one already placed is that file again (a deck's back is written once, not
    once per card). A front's file is ``<component>/<nnn>-<label>-front.png`` (``.png`` when
    one sided), its index kept when the label is cut to fit (``fit_name``); a back that backs
    one piece only is named beside it (``-back.png``), one shared by several ``back.png``
    (``back-2.png``... for a component's further shared backs)."""
    pieces: dict[tuple[Drawing, Drawing | None], list[Any]] = {}  # -> [comp, front, back, n]
    for comp, fronts, backs in rendered:
        for index, front in enumerate(fronts):
            back = backs[index] if backs else None
            key = (drawing(front), None if back is None else drawing(back))
            pieces.setdefault(key, [comp, front, back, 0])[3] += 1
    backing = Counter(key[1] for key in pieces if key[1] is not None)
    files: dict[Drawing, PngFile] = {}
    numbered: Counter[str] = Counter()  # distinct fronts placed in each component folder
    shared_backs: Counter[str] = Counter()
    lines = []
    for (front_key, back_key), (comp, front, back, copies) in pieces.items():
        stem = ""
        if front_key not in files:
            numbered[comp.id] += 1
            stem = str(folder / comp.id / fit_name(f"{numbered[comp.id]:03d}-{slug(front.label)}",
                                                   reserve=len(LONGEST_SUFFIX)))
            files[front_key] = PngFile(front, f"{stem}-front.png" if back else f"{stem}.png",
                                       dpi)
        if back_key is not None and back_key not in files:
            if backing[back_key] == 1 and stem:
                target = f"{stem}-back.png"
            else:
                shared_backs[comp.id] += 1
                n = shared_backs[comp.id]
                target = str(folder / comp.id / ("back.png" if n == 1 else f"back-{n}.png"))
            files[back_key] = PngFile(back, target, dpi)
        lines.append(OrderLine(files[front_key], None if back_key is None else files[back_key],
                               comp.id, front.label, copies))
    return lines


def png_files(lines: list[OrderLine]) -> list[PngFile]:
    """Every file the lines name, once, in the order they are first named."""
    return list({id(f): f for line in lines for f in (line.front, line.back) if f}.values())


def component_work(game: Game, comp: Component, theme: Theme, opts: BuildOptions, folder: Path,
                   dpi: int) -> list[tuple[Face, str, int]]:
    """One component's PNG files as the renderer takes them: (face, file, dpi)."""
    fronts, backs = render_faces(game, comp, theme, opts)
    return [(f.face, f.target, f.dpi)
            for f in png_files(order_lines([(comp, fronts, backs)], folder, dpi))]


ORDER_FIELDS = ("file", "back", "component", "label", "copies", "width_mm", "height_mm",
                "width_px", "height_px")


def write_order(lines: list[OrderLine], folder: Path, staging: Path, preset: Preset,
                dpi: int) -> None:
    """``order.csv`` beside the PNGs, and the same rows in ``manifest.json``: one line per
    distinct piece with its front's file, its back's (blank: one sided), its component and
    label, how many copies to order, the piece's trim size in mm and the image's size in
    pixels (read back from the written file, bleed included). A print shop's uploader wants
    each image once and a quantity per piece; the copies add up to the kit's pieces."""
    rows = []
    for line in lines:
        name = Path(line.front.target).relative_to(folder)
        with Image.open(staging / name) as image:  # the header only: the size as written
            width_px, height_px = image.size
        back = "" if line.back is None else Path(line.back.target).relative_to(folder).as_posix()
        rows.append({"file": name.as_posix(), "back": back, "component": line.component,
                     "label": line.label, "copies": line.copies,
                     "width_mm": line.front.face.w, "height_mm": line.front.face.h,
                     "width_px": width_px, "height_px": height_px})
    text = csv_text(ORDER_FIELDS, ({**row, "width_mm": f"{row['width_mm']:g}",
                                     "height_mm": f"{row['height_mm']:g}"} for row in rows))
    with atomic_file(staging / "order.csv") as out:  # labels neutralised (core/csvout.py)
        out.write(text.encode("utf-8"))
    manifest = {"preset": preset.name, "dpi": dpi, "bleed_mm": preset.bleed, "files": rows}
    with atomic_file(staging / "manifest.json") as out:
        out.write(json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8") + b"\n")


def _worker_init() -> None:
    """Pool workers leave Ctrl-C to the main process, which stops them and cleans up (a
    terminal's Ctrl-C reaches the whole process group; workers would each print a traceback),
    and do not hold the output folder's lock."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    drop_inherited_locks()


def write_all(work: list[tuple[Face, str, int]], jobs: int, bleed: float = 3.175) -> None:
    """Render each distinct face once, on ``jobs`` processes (faces are picklable data).

    The icons, SVG art and fonts of every face are loaded here, once, before any worker
    starts, and each task carries its own face's: workers only rasterise
    (generator/core/resources.py)."""
    grouped: dict[tuple[Face, int], list[str]] = {}
    for face, target, dpi in work:
        grouped.setdefault((face, dpi), []).append(target)
    for targets in grouped.values():
        make_folder(Path(targets[0]).parent)  # entered, never followed (core/atomic.py)
    resources = load_resources((prim for face, _ in grouped for prim in face.prims),
                               base_font=False)
    tasks: list[Job] = [(face, targets, dpi, bleed, resources.only(needs(face.prims)))
                        for (face, dpi), targets in grouped.items()]
    jobs = max(1, min(jobs, os.cpu_count() or 1))
    bar = Progress("PNG faces", len(tasks))
    try:
        if jobs == 1:
            for task in tasks:
                _job(task)
                bar.step()
            return
        with children.context("fork").Pool(jobs, initializer=_worker_init) as pool:
            for _ in pool.imap_unordered(_job, tasks, chunksize=2):
                bar.step()
    finally:
        bar.close()


DPI_RANGE = (72, 1200)


def export_pngs(game_id: str, opts: BuildOptions, dpi: int | None = None, jobs: int = 2,
                preset: str = "default") -> tuple[Path, int]:
    """Write ``output/<id>/png[-preset][.lang]/<component>/<nnn>-<name>-front.png`` (and its
    back): one file per distinct drawing, numbered in kit order (``order_lines``), and
    ``order.csv`` (``manifest.json``) pairing each front with its back and saying how many
    copies of each piece to order (``write_order``).

    The set is rendered into a fresh temporary folder beside it and swapped in whole, under
    the output folder's lock: a failure or Ctrl-C leaves the previous set as it was, and files
    of faces no longer in the game do not survive a successful export."""
    chosen = PRESETS[preset]
    dpi = chosen.dpi if dpi is None else dpi
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise ValueError(f"dpi must be from {DPI_RANGE[0]} to {DPI_RANGE[1]}, not {dpi}")
    with context.building():  # this build's own state (generator/core/context.py)
        game = load_game(game_id)
        name = ("png" if preset == "default" else f"png-{preset}") + (
            "" if opts.lang == i18n.SOURCE else f".{opts.lang}")  # png.fr/: beside English
        folder = opts.out_dir / game.id / name
        with i18n.session(game, opts.lang):  # faces are drawn here; workers only rasterise
            check_composition(game, opts.force)
            theme = game_theme(game, opts)
            shared = faces_key(game, theme, opts)  # faces a build drew are not drawn again
            lines = order_lines([(comp, *render_faces(game, comp, theme, opts, shared))
                                 for comp in game.components if comp.kind != "sheet"],
                                folder, dpi)
        files = png_files(lines)
        with output_lock(folder.parent), atomic_dir(folder) as staging:
            write_all([(f.face, str(staging / Path(f.target).relative_to(folder)), f.dpi)
                       for f in files], jobs, chosen.bleed)
            write_order(lines, folder, staging, chosen, dpi)
    return folder, len(files)
