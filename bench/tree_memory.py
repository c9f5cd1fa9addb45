"""The memory of a process tree while it runs (Linux /proc), for builds that fork workers.

GNU time's %M and wait4's ru_maxrss give the largest single process of a tree, which says
nothing of a parent and two workers together. A sampler thread reads every descendant's
resident set (statm) and proportional set (smaps_rollup) every few milliseconds and keeps the
largest sums. RSS counts a page shared after fork once per process (an upper bound); PSS
splits each shared page between the processes that share it (what the tree really costs).
Sampling can miss a peak shorter than the interval; builds allocate over hundreds of ms.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
PROC = Path("/proc")


def available() -> bool:
    return (PROC / "self" / "statm").is_file()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (not ``pid`` itself)."""
    out: list[int] = []
    todo = _children(pid)
    while todo:
        child = todo.pop()
        out.append(child)
        todo += _children(child)
    return out


def _rss(pid: int) -> int:
    try:
        return int((PROC / str(pid) / "statm").read_text().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _pss(pid: int) -> int:
    try:
        for line in (PROC / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


@dataclass
class TreePeak:
    """The largest sums seen (bytes) and the most processes alive at once."""

    rss: int = 0
    pss: int = 0
    processes: int = 0

    @property
    def rss_mib(self) -> float:
        return self.rss / 2**20

    @property
    def pss_mib(self) -> float:
        return self.pss / 2**20


class TreeSampler:
    """``with TreeSampler(pid) as peak:`` samples the descendants of ``pid`` until exit."""

    def __init__(self, pid: int, interval: float = 0.005) -> None:
        self.pid = pid
        self.interval = interval
        self.peak = TreePeak()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        pids = descendants(self.pid)
        rss = sum(_rss(p) for p in pids)
        pss = sum(_pss(p) for p in pids)
        peak = self.peak
        peak.rss, peak.pss = max(peak.rss, rss), max(peak.pss, pss)
        peak.processes = max(peak.processes, len(pids))

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> TreePeak:
        self._thread.start()
        return self.peak

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
