"""One line of a report: what was checked, whether it held, the detail, and where it is from.

Every check that reports to a designer speaks this one type: a rules engine's ``verify``, the
data file's declarative ``verify:`` list, the pre-flight checks of the drawn faces and the
translation report of a kit in another language. It sits on the ground floor so that each of
those layers can make findings without importing another (``verify`` prints them all alike).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.words import safe_lines


@dataclass(frozen=True)
class Finding:
    """One line of a composition report: what was checked, whether it held, and the detail."""

    check: str
    ok: bool
    detail: str = ""
    warn: bool = False  # a pre-flight warning: fails only ``verify --strict``
    where: str = ""  # "file:line" of the data the finding is about (see ``rules.base.at``)
    # Where the expectation comes from: RULEBOOK (the game's published rules or card list)
    # or DESIGN (a target of this kit: print legibility, sheet counts, our own readings).
    basis: str = ""
    # The pieces it is about, by face label (all of them; ``detail`` names a few): the studio
    # (``pnp serve``) marks them on the sheets and faces. Left out of equality and lines.
    pieces: tuple[str, ...] = field(default=(), compare=False)

    def line(self) -> str:
        """The finding as a report prints it, safe for a terminal whatever data it quotes
        (generator/core/words.py; whole: a translator copies an untranslated text from it)."""
        mark = "ok  " if self.ok else ("WARN" if self.warn else "FAIL")
        place = f" ({self.where})" if self.where and not self.ok else ""
        basis = f" [{self.basis}]" if self.basis else ""
        return safe_lines(f"  [{mark}]{basis} {self.check}"
                          + (f": {self.detail}" if self.detail else "") + place, None)


RULEBOOK = "rulebook"  # Finding.basis: the check restates the published rules or card list
DESIGN = "design"  # Finding.basis: our own target (legibility, sheet counts, a reading)
