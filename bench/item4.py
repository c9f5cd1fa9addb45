"""Issue 37, item 4 ("speed from less work"): whole-process CPU, paired in one run.

Every contender is its own process (interpreter start and imports counted), run in turn
within each round so a busy neighbour slows all of them alike; the figure is the CPU time,
user + system, of the process and every worker it forked (``os.wait4``), median of the
rounds: wall time on a shared machine says more about the neighbours than about us.

Rows (targets from the issue):

- Moving Target, warm (a build after a build of the same files) <= 2.0x the plain ReportLab
  deck (bench/plain_deck.py);
- all five kits, warm <= 5x the plain deck;
- all five kits cold: ``PNP_CACHE=0`` (no results remembered; compiled expressions and font
  tables, generator/core/code_cache.py, kept as Python keeps ``__pycache__``), and with an
  empty cache folder each run (nothing at all from before);
- a second cold build compiles no expression and parses no font (bench/count_work.py);
- with ``--against CHECKOUT`` (an older checkout of this repository, e.g. a worktree of
  ``30042a2``): each row of ours at most as much CPU as the same command run there, in the
  same rounds. Its ``.venv/bin/python`` is used when it has one. A package it needs that this
  venv lacks can be put on ``PYTHONPATH``.

    python bench/item4.py [--rounds N] [--against CHECKOUT]

A FAIL is a finding, not an error: the script always exits 0.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verdicts import summary, verdict

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
GAME = "moving-target"
KIT_VS_PLAIN_MAX = 2.0
FIVE_VS_PLAIN_MAX = 5.0
ENV = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONDONTWRITEBYTECODE", "PNP_CACHE", "PNP_CODE_CACHE")}


@dataclass
class Contender:
    """One command: where it runs, its environment, and its CPU seconds over the rounds.
    ``fresh``: a cache folder emptied before every run (a build with nothing from before)."""

    label: str
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    fresh: Path | None = None
    cpu: list[float] = field(default_factory=list)
    failed: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.cpu)

    def run(self) -> float:
        if self.fresh is not None:
            shutil.rmtree(self.fresh, ignore_errors=True)
        proc = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            last = err.strip().splitlines()[-1:] or ["no message"]
            raise RuntimeError(f"exit {os.waitstatus_to_exitcode(status)}: {last[0]}")
        return usage.ru_utime + usage.ru_stime

    def line(self) -> str:
        if self.failed:
            return f"  {self.label}: failed ({self.failed})"
        return (f"  {self.label}: median {self.median:.2f} s CPU (min {min(self.cpu):.2f}, "
                f"max {max(self.cpu):.2f}, n={len(self.cpu)})")


def builds(tag: str, checkout: Path, out: Path) -> dict[str, Contender]:
    """The four builds of one checkout, its caches in folders of its own under ``out``."""
    python = checkout / ".venv" / "bin" / "python"
    py = str(python) if python.is_file() else sys.executable
    cache = out / f"cache-{tag}"
    env = {**ENV, "PNP_CACHE_DIR": str(cache)}

    def build(*args: str) -> list[str]:
        return [py, "-m", "generator", "build", *args]
    who = "" if tag == "ours" else f" [{checkout}]"
    return {
        f"{tag} kit": Contender(f"Moving Target, warm{who}", build(GAME, "--out", str(out / tag)),
                                checkout, env),
        f"{tag} five": Contender(f"all five kits, warm{who}", build("--out", str(out / tag)),
                                 checkout, env),
        f"{tag} cold": Contender(f"all five kits, PNP_CACHE=0{who}",
                                 build("--out", str(out / f"{tag}-cold")), checkout,
                                 {**env, "PNP_CACHE": "0"}),
        f"{tag} empty": Contender(f"all five kits, empty cache folder{who}",
                                  build("--out", str(out / f"{tag}-empty")), checkout,
                                  {**env, "PNP_CACHE_DIR": str(out / f"empty-{tag}")},
                                  fresh=out / f"empty-{tag}"),
    }


def measure(rounds: int, against: Path | None, out: Path) -> dict[str, Contender]:
    contenders = {"plain": Contender("plain ReportLab deck",
                                     [sys.executable, str(BENCH / "plain_deck.py"),
                                      str(out / "plain.pdf")], ROOT, dict(ENV))}
    contenders.update(builds("ours", ROOT, out))
    if against is not None:
        contenders.update(builds("theirs", against, out))
    for contender in contenders.values():  # untimed: .pyc files and the caches exist
        try:
            contender.run()
        except RuntimeError as exc:
            contender.failed = f"warm-up: {exc}"
    for _ in range(rounds):
        for contender in contenders.values():
            if contender.failed:
                continue
            try:
                contender.cpu.append(contender.run())
            except RuntimeError as exc:
                contender.failed = str(exc)
    return contenders


def second_cold_build(out: Path) -> dict[str, int]:
    """What a cold build (PNP_CACHE=0) compiles and parses after one in the same folder."""
    env = {**ENV, "PNP_CACHE": "0", "PNP_CACHE_DIR": str(out / "counted")}
    counts: dict[str, int] = {}
    for n in (1, 2):
        target = out / f"counted-{n}.json"
        subprocess.run([sys.executable, str(BENCH / "count_work.py"), str(target), "build",
                        "--out", str(out / "counted-out")], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        counts = json.loads(target.read_text(encoding="utf-8"))
        if n == 1:
            first = counts
    return {"first compiled": first["compiled"], "first parsed": first["parsed"], **counts}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--against", type=Path, default=None,
                    help="an older checkout to run the same builds from, paired")
    args = ap.parse_args(argv)
    against = args.against.resolve() if args.against else None
    if against is not None and not (against / "generator" / "__main__.py").is_file():
        print(f"item 4: --against {against}: not a checkout of this tool; compared to nothing")
        against = None
    print(f"issue 37 item 4: whole-process CPU (user+sys, workers included), "
          f"{max(1, args.rounds)} alternating rounds, load {os.getloadavg()[0]:.2f}")
    results: list[tuple[str, bool]] = []
    out = Path(tempfile.mkdtemp(prefix="pnp-item4-"))
    try:
        runs = measure(max(1, args.rounds), against, out)
        for contender in runs.values():
            print(contender.line())
        plain = runs["plain"]
        for key, name, limit in (("ours kit", "Moving Target warm", KIT_VS_PLAIN_MAX),
                                 ("ours five", "all five kits warm", FIVE_VS_PLAIN_MAX)):
            if not (plain.failed or runs[key].failed):
                ratio = runs[key].median / plain.median
                ok = ratio <= limit
                results.append((f"{name} / plain", ok))
                print(f"{name} / plain deck, CPU: {ratio:.2f}x (target <= {limit}x) "
                      f"{verdict(ok)}")
        if against is not None:
            for what in ("kit", "five", "cold", "empty"):
                ours, theirs = runs[f"ours {what}"], runs[f"theirs {what}"]
                if ours.failed or theirs.failed:
                    continue
                ratio = ours.median / theirs.median
                ok = ratio <= 1.0
                results.append((f"{what} vs {against.name}", ok))
                label = ours.label.split(" [")[0]
                print(f"{label}: ours / {against.name}'s, CPU: {ratio:.2f}x "
                      f"({ours.median:.2f} s against {theirs.median:.2f} s; target <= 1.00x) "
                      f"{verdict(ok)}")
        try:
            counts = second_cold_build(out)
        except subprocess.CalledProcessError as exc:
            print(f"second cold build: failed ({(exc.stderr or b'').decode()[-200:]})")
            results.append(("second cold build", False))
        else:
            ok = counts["compiled"] == 0 and counts["parsed"] == 0
            results.append(("second cold build", ok))
            print(f"a second cold build (PNP_CACHE=0) compiles {counts['compiled']} expressions "
                  f"and parses {counts['parsed']} fonts (the first: {counts['first compiled']} "
                  f"and {counts['first parsed']}; target 0 and 0) {verdict(ok)}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    summary("item 4", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
