"""`make bench`: every benchmark in one run, as ratios against plain ReportLab / Pillow and as
games per second. Not a test: numbers to read and to quote in notes, not to assert on.

    python bench/run.py [--against CHECKOUT]   (make bench AGAINST=CHECKOUT)

``--against``: an older checkout whose builds issue 37's rows (bench/item4.py) run beside
ours, paired in the same rounds."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
os.chdir(HERE.parent)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--against", default=None, help="an older checkout for bench/item4.py")
    args = ap.parse_args(argv)
    import bench_deck
    import bench_png

    # The in-process benches start workers through generator.core.children, which sets
    # PYTHONSAFEPATH=1 in this process's environment (right for the tool: a child never imports
    # from the folder it stands in). The whole-process rows below run `python -m generator` in
    # the checkout as `make pdf` does, which needs the checkout on the path: the environment
    # goes back to what the user's shell gave.
    users = dict(os.environ)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    bench_deck.main()
    bench_png.main()
    for name in ("bench_simulate",):
        if (HERE / f"{name}.py").exists():
            module = __import__(name)
            module.main()
    os.environ.clear()
    os.environ.update(users)
    import whole_process  # issue 14: whole-process figures (processes, memory, watch)

    whole_process.main([])
    import item4  # issue 37, item 4: CPU rows against the plain deck and an older checkout

    item4.main(["--against", args.against] if args.against else [])
    import studio_latency  # issue 28: an edit seen in the studio, in a real browser

    studio_latency.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
