"""The same 52-card deck (4 suits x 13 ranks, 63.5 x 88.9 mm, A4, 3 x 3 a sheet, a back for
every card) drawn with protograf, an optional comparison: ``python bench/protograf_deck.py
OUT.pdf``. protograf is not a dependency; bench/whole_process.py runs this only when an
interpreter with protograf exists (``pip install protograf==0.5.2`` into the venv, or
``PROTOGRAF_PYTHON=/path/to/python``).

Same pieces as the plain ReportLab baseline, drawn with protograf's own shapes: both corner
ranks (one turned), a corner pip, the rank's pips at the same positions, the ace's big pip,
the court frame and big letter, the caption; on the back the navy field, the diamond pattern,
the gold frame and the title; grid marks for cutting. protograf draws its own shapes (circles
for the suit pips, rhombi for the pattern), which are simpler than our Bezier suit shapes, so
if anything this version flatters protograf."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
W, H = 6.35, 8.89  # cm, protograf's default unit
NAVY, PATTERN, GOLD, CREAM = "#1f3a5f", "#2d5283", "#e9c46a", "#f4efe1"


def main(argv: list[str]) -> int:
    """Draw the deck to argv[0] and say how many cards."""
    target = Path(argv[0]).resolve() if argv else Path("/tmp/protograf.pdf")
    sys.argv[1:] = []  # protograf's Create() parses the command line itself
    import protograf as pg  # type: ignore[import-not-found]

    data = yaml.safe_load((ROOT / "card_data/moving-target.yaml").read_text())
    suits, ranks = data["tables"]["suits"], data["tables"]["ranks"]
    os.chdir(target.parent)
    pg.Create(filename=target.name, paper="A4", margin=0.5)
    pg.Deck(cards=len(suits) * len(ranks), width=W, height=H, grid_marks=True)
    px0, pw, py0, ph, pip = W * 0.27, W * 0.46, H * 0.16, H * 0.68, W * 0.16
    for number, (suit, rank) in enumerate(((s, r) for s in suits for r in ranks), start=1):
        ink = "#c0162c" if suit["id"] in "HD" else "#1b1b1b"
        parts = [
            pg.text(text=rank["id"], x=0.72, y=0.95, font_size=19, stroke=ink),
            pg.text(text=rank["id"], x=W - 0.72, y=H - 0.95, font_size=19, stroke=ink,
                    rotation=180),
            pg.circle(cx=0.72, cy=1.45, radius=0.3, fill=ink, stroke=ink),
            pg.circle(cx=W - 0.72, cy=H - 1.45, radius=0.3, fill=ink, stroke=ink),
            pg.text(text=f"{rank['name']} of {suit['name']}", x=W / 2, y=H - 0.36,
                    font_size=6.5, stroke="#6b6b6b"),
        ]
        parts += [pg.circle(cx=px0 + x * pw, cy=py0 + y * ph, radius=pip / 2, fill=ink,
                            stroke=ink) for x, y in rank["pips"]]
        if rank.get("ace"):
            parts.append(pg.circle(cx=W / 2, cy=H / 2, radius=1.5, fill=ink, stroke=ink))
        if rank.get("court"):
            parts += [pg.rectangle(x=1.35, y=1.2, width=W - 2.7, height=H - 2.4,
                                   rounding=0.25, fill=CREAM, stroke=ink),
                      pg.text(text=rank["id"], x=W / 2, y=H / 2 + 0.8, font_size=64,
                              stroke=ink)]
        pg.Card(str(number), *parts)
    step = 0.7
    back = [pg.rectangle(x=0, y=0, width=W, height=H, fill=NAVY, stroke=NAVY)]
    back += [pg.rhombus(cx=col * step, cy=row * step, width=step * 0.84, height=step * 0.84,
                        fill=PATTERN, stroke=PATTERN)
             for row in range(1, int(H / step) + 1) for col in range(1, int(W / step) + 1)]
    back += [pg.rectangle(x=0.5, y=0.5, width=W - 1, height=H - 1, rounding=0.3, fill=None,
                          stroke=GOLD),
             pg.text(text="MOVING TARGET", x=W / 2, y=H / 2, font_size=16, stroke=GOLD)]
    pg.CardBack("all", *back)
    pg.Save()
    print(len(suits) * len(ranks), "cards")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
