"""The plain ReportLab deck (bench/baseline_reportlab.py) as a script run in its own process:
``python bench/plain_deck.py OUT.pdf``. Whole-process timing needs the interpreter start and
the imports counted on both sides, so the baseline must be a process too, not a function."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench")]  # the baseline only: it imports yaml and ReportLab


def main(argv: list[str]) -> int:
    """Draw the 52 cards to argv[0] (default /tmp/baseline.pdf) and say how many pages."""
    from baseline_reportlab import build

    target = Path(argv[0]) if argv else Path("/tmp/baseline.pdf")
    print(build(target.resolve()), "pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
