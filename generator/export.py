"""PNG export: every distinct face of a kit as its own PNG, rendered on all cores."""
from __future__ import annotations

import multiprocessing
import os
import re
from pathlib import Path

from .build import BuildOptions, check_composition, game_theme, render_faces
from .data import load_game
from .faces.primitives import Face
from .render.png import write_png


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "face"


def _job(args: tuple[Face, str, int]) -> str:
    face, target, dpi = args
    write_png(face, Path(target), dpi)
    return target


def export_pngs(game_id: str, opts: BuildOptions, dpi: int = 300, jobs: int = 2
                ) -> tuple[Path, int]:
    """Write ``output/<id>/png/<component>/<nnn>-<name>-front.png`` (and ``-back.png``): one
    file per distinct face, numbered in kit order so fronts and backs pair by name."""
    game = load_game(game_id)
    check_composition(game, opts.force)
    theme = game_theme(game, opts)
    folder = opts.out_dir / game.id / "png"
    work: list[tuple[Face, str, int]] = []
    for comp in game.components:
        fronts, backs = render_faces(game, comp, theme, opts)
        seen: set[Face] = set()
        number = 0
        for index, face in enumerate(fronts):
            if face in seen:
                continue
            seen.add(face)
            number += 1
            stem = folder / comp.id / f"{number:03d}-{slug(face.label)}"
            work.append((face, f"{stem}-front.png" if backs else f"{stem}.png", dpi))
            if backs:
                work.append((backs[index], f"{stem}-back.png", dpi))
    jobs = max(1, min(jobs, os.cpu_count() or 1))
    if jobs == 1:
        for item in work:
            _job(item)
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for _ in pool.imap_unordered(_job, work, chunksize=4):
                pass
    return folder, len(work)
