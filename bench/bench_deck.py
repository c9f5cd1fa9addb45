"""Our Moving Target deck (data -> templates -> layout -> PDF) against the plain ReportLab
baseline drawing the same 52 cards on the same sheets. Prints the ratio (target <= 2x)."""
from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from baseline_reportlab import build as baseline_build

from generator.data import load_game
from generator.data.design.resources import load_resources
from generator.data.design.templates import load_template
from generator.layout.assemble import Part
from generator.layout.furnish import front_furniture, make_page
from generator.layout.kit import Packer, centre_sheet
from generator.layout.page import drawn
from generator.orchestration.drawing import component_part, game_theme
from generator.orchestration.options import BuildOptions
from generator.render.pdf import write_pdf


def ours(target: Path) -> int:
    """The whole pipeline for the deck, from the YAML file (caches cleared: a cold build)."""
    load_template.cache_clear()
    opts = BuildOptions(out_dir=target.parent)
    game = load_game("moving-target")
    comp = game.component("deck")
    part: Part = component_part(game, comp, game_theme(game, opts), opts)
    spec = opts.sheet_spec()
    packer = Packer(spec)
    packer.add_stream(part.pieces)
    pages = []
    for draft in (centre_sheet(d, spec) for d in packer.sheets):
        pages.append(make_page(draft.frame, draft.front, front_furniture(
            draft, "bench", spec.paper.w, spec.paper.h), "front", "pieces"))
        pages.append(make_page(draft.frame, draft.back, [], "back", "pieces"))
    write_pdf(pages, target, title="bench", resources=load_resources(drawn(pages)))
    return len(pages)


def best_of(fn: Callable[[Path], int], target: Path, repeats: int) -> tuple[float, int]:
    best, pages = float("inf"), 0
    for _ in range(repeats):
        start = time.perf_counter()
        pages = fn(target)
        best = min(best, time.perf_counter() - start)
    return best, pages


def main(repeats: int = 5) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        ours_t, ours_pages = best_of(ours, Path(tmp) / "ours.pdf", repeats)
        base_t, base_pages = best_of(baseline_build, Path(tmp) / "plain.pdf", repeats)
        ours_size = (Path(tmp) / "ours.pdf").stat().st_size
        base_size = (Path(tmp) / "plain.pdf").stat().st_size
    ratio = ours_t / base_t
    print(f"deck PDF: ours {ours_t * 1000:.0f} ms ({ours_pages} pages, {ours_size // 1024} KB) | "
          f"plain ReportLab {base_t * 1000:.0f} ms ({base_pages} pages, {base_size // 1024} KB) | "
          f"ratio {ratio:.2f}x (target <= 2x) {'OK' if ratio <= 2 else 'SLOW'}")
    return {"deck_ratio": ratio, "deck_ms": ours_t * 1000, "baseline_ms": base_t * 1000}


if __name__ == "__main__":
    main()
