"""Our PNG export of the Moving Target deck against a plain Pillow loop, both on two cores.
Prints the ratio (target <= 1.2x)."""
from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from baseline_pillow import export as baseline_export

from generator.data import load_game
from generator.orchestration.drawing import game_theme
from generator.orchestration.export import component_work, write_all
from generator.orchestration.options import BuildOptions


def ours(folder: Path, jobs: int = 2) -> int:
    """Data -> faces -> PNG files for the 52 fronts and their one back."""
    opts = BuildOptions(out_dir=folder)
    game = load_game("moving-target")
    work = component_work(game, game.component("deck"), game_theme(game, opts), opts, folder, 300)
    write_all(work, jobs)
    return len(work)


def best_of(fn: Callable[[Path], int], repeats: int) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            count = fn(Path(tmp))
            best = min(best, time.perf_counter() - start)
    return best, count


def main(repeats: int = 2) -> dict[str, float]:
    ours_t, ours_n = best_of(ours, repeats)
    base_t, base_n = best_of(baseline_export, repeats)
    ratio = ours_t / base_t
    print(f"deck PNGs (300 dpi, 2 cores): ours {ours_t:.2f} s ({ours_n} files) | plain Pillow "
          f"{base_t:.2f} s ({base_n} files) | ratio {ratio:.2f}x (target <= 1.2x) "
          f"{'OK' if ratio <= 1.2 else 'SLOW'}")
    return {"png_ratio": ratio, "png_s": ours_t, "png_baseline_s": base_t}


if __name__ == "__main__":
    main()
