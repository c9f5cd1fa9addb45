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
from generator.data import i18n, load_game
from generator.data.resources import load_resources
from generator.data.themes import Theme
from generator.orchestration.build import (
    check_composition,
    faces_key,
    game_theme,
    render_faces,
)
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


@dataclass(frozen=True)
class PngFile:
    """One PNG of the set and what a print shop's order needs of it."""

    face: Face
    target: str
    dpi: int
    component: str
    label: str
    copies: int  # how many of this piece the game has (a front and its back alike)


def component_files(game: Game, comp: Component, theme: Theme, opts: BuildOptions,
                    folder: Path, dpi: int, shared: str | None = None) -> list[PngFile]:
    """The PNG files of one component: one per distinct front, each with its back beside it.
    A name is ``<index>-<label>``: a label too long for a file name is cut at its end
    (``fit_name``), the index kept, so every name stays unique and pairs with its back. Each
    file says how many copies of it the game has (13 friend images make 36 cards).
    ``shared``: the face cache's key part, as ``build.render_faces`` takes it."""
    fronts, backs = render_faces(game, comp, theme, opts, shared)
    copies = Counter(fronts)
    files: list[PngFile] = []
    seen: set[Face] = set()
    for index, face in enumerate(fronts):
        if face in seen:
            continue
        seen.add(face)
        stem = folder / comp.id / fit_name(f"{len(seen):03d}-{slug(face.label)}",
                                           reserve=len(LONGEST_SUFFIX))
        files.append(PngFile(face, f"{stem}-front.png" if backs else f"{stem}.png", dpi,
                             comp.id, face.label, copies[face]))
        if backs:
            files.append(PngFile(backs[index], f"{stem}-back.png", dpi, comp.id, face.label,
                                 copies[face]))
    return files


def component_work(game: Game, comp: Component, theme: Theme, opts: BuildOptions, folder: Path,
                   dpi: int) -> list[tuple[Face, str, int]]:
    """``component_files`` as the renderer takes them: (face, file, dpi)."""
    return [(f.face, f.target, f.dpi)
            for f in component_files(game, comp, theme, opts, folder, dpi)]


ORDER_FIELDS = ("file", "component", "label", "copies", "width_mm", "height_mm", "width_px",
                "height_px")


def write_order(files: list[PngFile], folder: Path, staging: Path, preset: Preset,
                dpi: int) -> None:
    """``order.csv`` beside the PNGs, and the same rows in ``manifest.json``: each file, its
    component and label, how many copies to order, the piece's trim size in mm and the image's
    size in pixels (read back from the written file, bleed included). A print shop's uploader
    wants one image per distinct face; this says how many of each."""
    rows = []
    for f in files:
        name = Path(f.target).relative_to(folder)
        with Image.open(staging / name) as image:  # the header only: the size as written
            width_px, height_px = image.size
        rows.append({"file": name.as_posix(), "component": f.component, "label": f.label,
                     "copies": f.copies, "width_mm": f.face.w, "height_mm": f.face.h,
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
    """Write ``output/<id>/png[-preset][.lang]/<component>/<nnn>-<name>-front.png`` (and
    ``-back.png``): one file per distinct face, numbered in kit order so a print shop's
    uploader pairs each front with its back by name, and ``order.csv`` (``manifest.json``)
    saying how many copies of each to order (``write_order``).

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
            files = [file for comp in game.components if comp.kind != "sheet"
                     for file in component_files(game, comp, theme, opts, folder, dpi, shared)]
        with output_lock(folder.parent), atomic_dir(folder) as staging:
            write_all([(f.face, str(staging / Path(f.target).relative_to(folder)), f.dpi)
                       for f in files], jobs, chosen.bleed)
            write_order(files, folder, staging, chosen, dpi)
    return folder, len(files)
