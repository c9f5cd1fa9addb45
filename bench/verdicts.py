"""How a bench says whether it met its targets: one word per row, one summary line per bench."""
from __future__ import annotations

from collections.abc import Sequence


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def summary(label: str, results: Sequence[tuple[str, bool]]) -> None:
    """``label summary: K/N targets met; FAIL: names``, the line CI logs and people grep."""
    failed = [name for name, ok in results if not ok]
    print(f"{label} summary: {len(results) - len(failed)}/{len(results)} targets met"
          + (f"; FAIL: {', '.join(failed)}" if failed else ""))
