"""Output: a laid-out kit's resources loaded, its pages rendered and its files written.

The pipeline's last stages (generator/orchestration/build.py): the icons, SVG art and fonts
the pages draw with loaded once (generator/data/design/resources.py), the PDF rendered
(generator/render/pdf.py) with its manifest beside it, the calibration sheet and, when asked,
the cut files; every file written to a temporary name and renamed into place under the kit
folder's lock (generator/core/atomic.py), so a failure leaves the previous set whole.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from generator.core.atomic import atomic_batch, atomic_dir, atomic_file, output_lock
from generator.core.errors import InputError
from generator.core.model import Game
from generator.data.design.resources import load_resources
from generator.data.translation import i18n
from generator.layout.calibration import calibration_pages
from generator.layout.cutfile import MAX_CUT_FILES, cut_name, cut_pages, cut_svg
from generator.layout.manifest import manifest_path, write_manifest
from generator.layout.outline import kit_outline
from generator.layout.page import Kit, Sheet, drawn
from generator.orchestration.naming import (
    calibration_name,
    cut_folder,
    kit_credit,
    kit_title,
    output_pdf,
)
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf


def write_built(game: Game, kit: Kit, opts: BuildOptions) -> Path:
    """Write a built kit where ``output_pdf`` says: the PDF, its manifest and calibration
    sheet (and cut files when asked); returns the PDF's path."""
    target = output_pdf(game.id, opts)
    # One build of a folder at a time; the PDF, manifest and calibration sheet are all written
    # to temporary files first and only then renamed into place, so a failure (or Ctrl-C)
    # leaves the previous set whole.
    cuts = cut_files(game, kit) if opts.cut_svg else None  # refused before anything is written
    # The cut files are staged first: a cut folder the project made a link is refused
    # (UnsafeOutput) before the PDF, manifest or calibration sheet is written.
    with (output_lock(target.parent), staged_folder(cut_folder(target), cuts),
          atomic_batch()):
        write_kit(kit, target, title=i18n.message("kit.title", title=kit_title(game)),
                  subject=kit_credit(game))
        if opts.layout == "sheets":
            write_calibration(target.with_name(calibration_name(game.id, opts)), opts)
    return target


def cut_files(game: Game, kit: Kit) -> dict[str, bytes]:
    """One SVG of cut lines per sheet side holding pieces (generator/layout/cutfile.py), by
    file name; a kit past ``MAX_CUT_FILES`` sides is refused."""
    pages = cut_pages(kit)
    if len(pages) > MAX_CUT_FILES:
        raise InputError(f"--cut-svg: {game.id}'s kit has {len(pages)} sheet sides of pieces; "
                         f"a set of cut files holds at most {MAX_CUT_FILES}")
    corners = {comp.id: comp.corner for comp in game.components}
    nets = {comp.id for comp in game.components if comp.kind == "die"}
    return {cut_name(sheet, page.side): cut_svg(page, sheet, corners, nets)
            for sheet, page in pages}


@contextmanager
def staged_folder(folder: Path, files: dict[str, bytes] | None) -> Iterator[None]:
    """A set of files written into a fresh folder before the block and swapped in whole after
    it, so no file of an older, longer set survives (generator/core/atomic.py) and a refusal
    of ``folder`` (a link) comes before the block writes anything. The block failing, the
    set is not swapped in. Called under the kit folder's lock; ``files`` None: nothing to
    write. The folder is swapped in on its own, after the block's batch of files."""
    if files is None:
        yield
        return
    with atomic_dir(folder) as staging:
        for name, data in files.items():
            with atomic_file(staging / name) as out:
                out.write(data)
        yield


def write_kit(kit: Kit, target: Path, title: str, subject: str) -> None:
    """The PDF and, beside it, its manifest (replaced together, under the folder's lock); the
    PDF asks for duplex only when it is safe. The icons, SVG art and fonts its pages draw
    with are loaded here, once, and given to the renderer (generator/core/resources.py)."""
    pages = kit.pages
    resources = load_resources(drawn(pages))
    with output_lock(target.parent), atomic_batch():
        write_pdf(pages, target, title=title, subject=subject, outline=kit.outline,
                  duplex=kit.flip if kit.duplex_safe else "none", lang=i18n.lang(),
                  resources=resources)
        write_manifest(kit, manifest_path(target))


def write_calibration(target: Path, opts: BuildOptions) -> None:
    with i18n.session(None, opts.lang):
        pages = calibration_pages(opts.paper_size, opts.flip)
        sheet = Sheet(replace(pages[0], side="front", content="calibration"),
                      replace(pages[1], side="back", content="calibration"))
        kit = Kit("calibration", opts.paper, opts.paper_size, opts.flip, (sheet,),
                  kit_outline((sheet,), {}))
        write_kit(kit, target, i18n.message("calibration.pdf_title"),
                  i18n.message("kit.subject"))
