"""`make bench`: every benchmark in one run, as ratios against plain ReportLab / Pillow and as
games per second. Not a test: numbers to read and to quote in notes, not to assert on."""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
os.chdir(HERE.parent)


def main() -> int:
    import bench_deck
    import bench_png

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    bench_deck.main()
    bench_png.main()
    for name in ("bench_simulate",):
        if (HERE / f"{name}.py").exists():
            module = __import__(name)
            module.main()
    import whole_process  # issue 14: whole-process figures (processes, memory, watch)

    whole_process.main([])
    import studio_latency  # issue 28: an edit seen in the studio, in a real browser

    studio_latency.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
