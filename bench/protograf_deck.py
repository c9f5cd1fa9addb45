"""The same 52-card deck (4 suits x 13 ranks, 63.5 x 88.9 mm, A4, 3 x 3 a sheet) drawn with
protograf, an optional comparison: ``python bench/protograf_deck.py OUT.pdf``. protograf is
not a dependency (``pip install protograf==0.5.2`` to compare); bench/whole_process.py runs
this only when ``import protograf`` works. Written against protograf's documented script API
(Create / Deck / Card / Save); not exercised here when protograf is absent, so a failure is
reported by the harness as such, not taken as a timing."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    """Draw the deck (rank and suit name on each face, a plain back) to argv[0]."""
    from protograf import Card, Create, Deck, Save, text  # type: ignore[import-not-found]

    target = Path(argv[0]).resolve() if argv else Path("/tmp/protograf.pdf")
    data = yaml.safe_load((ROOT / "card_data/moving-target.yaml").read_text())
    suits, ranks = data["tables"]["suits"], data["tables"]["ranks"]
    os.chdir(target.parent)
    Create(filename=target.name, paper="A4", margin=1.0)  # protograf's unit: cm
    Deck(cards=len(suits) * len(ranks), width=6.35, height=8.89)
    for number, (suit, rank) in enumerate(((s, r) for s in suits for r in ranks), start=1):
        ink = "#c0162c" if suit["id"] in "HD" else "#1b1b1b"
        Card(str(number), text(text=rank["id"], x=0.7, y=0.9, font_size=19, stroke=ink),
             text(text=f"{rank['name']} of {suit['name']}", x=3.2, y=8.5, font_size=6.5))
    Save()
    print(len(suits) * len(ranks), "cards")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
