"""Whole-process figures for issue 14 (`make bench` prints them after the in-process ones).

The in-process benchmarks (bench_deck.py) hide what a designer actually waits for: starting the
interpreter, importing ReportLab, Pillow and our modules, reading fonts. So here every
contender is its own process run with this interpreter, alternating within each round (so a
busy neighbour slows all of them alike), and we print medians with min/max and the ratios
against the issue's targets. A FAIL is a finding, not an error: the script always exits 0.

Peak memory is each child's max RSS as GNU ``/usr/bin/time -f %M`` reports it (KiB), and
every contender runs under it alike. Not ``getrusage(RUSAGE_CHILDREN)`` (the maximum over every
child so far) nor our own ``wait4`` of the child: Linux counts in a child's ``ru_maxrss`` the
RSS it had as a fork of this process before ``exec``, so after the in-process benchmarks every
child "peaked" at this process's size. /usr/bin/time forks from a 2 MiB process instead. Without
it we fall back to ``wait4`` and say the figure is an upper bound.

Peak memory of the five-kit build is the whole process tree's: the build forks one worker
per core, and GNU time's %M is the largest single process, not their total. So while it runs we
sample every process of the tree from /proc every 5 ms and take the largest sum of their
resident sets (RSS: pages shared after fork are counted once per process, so this is an upper
bound) and of their proportional sets (PSS: shared pages split between their processes).

Children run as a user's would: with .pyc files (PYTHONDONTWRITEBYTECODE is removed from
their environment, and every contender has one untimed warm-up run first) and with the
build's on-disk cache (generator/core/cache.py: playouts, worked examples and drawn faces) in a
folder of this run, warmed up the same way: "warm" is a build after a build of the same files.
The same five-kit build with ``PNP_CACHE=0`` is printed beside it (no target): what a build
costs with nothing remembered, e.g. the first after an install.

protograf is an optional comparison: found in this venv, in ``.venv-protograf/`` beside the
repository (``make bench-protograf`` makes it) or at ``$PROTOGRAF_PYTHON``. Its deck takes
tens of seconds, so it runs once per bench rather than once per round: at ratios this large
the noise of one run does not change the verdict.

    python bench/whole_process.py [--rounds N] [--edits N] [--skip-five] [--skip-watch]
                                   [--skip-protograf]
"""
from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from tree_memory import TreePeak, TreeSampler, available
from verdicts import summary, verdict

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PY = sys.executable
GAME = "moving-target"
PROTOGRAF_NOTE = ("protograf: not installed (make bench-protograf installs protograf 0.5.2 into "
                  ".venv-protograf/ to compare); skipped")

# The targets (issue 14, deliverable 1).
KIT_VS_PLAIN_MAX = 2.5  # one kit / plain ReportLab deck
PROTOGRAF_VS_KIT_MIN = 5.0  # protograf deck / one kit
FIVE_KITS_MAX_S = 1.5
WATCH_MAX_S = 0.3
PEAK_MAX_MIB = 150.0
FRONT_DOOR_MAX_S = 0.15  # issue 23, item 8: `pnp --version`, `pnp --help`, `pnp list`
FRONT_DOOR = (("pnp --version", ["--version"]), ("pnp --help", ["--help"]),
              ("pnp list", ["list"]))


@dataclass
class Runs:
    """The timings (s) and peak RSS (MiB) of one contender over the rounds."""

    label: str
    seconds: list[float] = field(default_factory=list)
    peak_mib: list[float] = field(default_factory=list)
    failed: str = ""
    tree: TreePeak = field(default_factory=TreePeak)  # sampled for the five-kit build

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def line(self) -> str:
        if self.failed:
            return f"{self.label}: failed ({self.failed})"
        return (f"{self.label}: median {self.median:.2f} s (min {min(self.seconds):.2f}, "
                f"max {max(self.seconds):.2f}, n={len(self.seconds)}), "
                f"peak RSS {max(self.peak_mib):.0f} MiB")


GNU_TIME = Path("/usr/bin/time")


def gnu_time() -> bool:
    """Is /usr/bin/time GNU time (``-f``/``-o``)? BusyBox and BSD ones differ."""
    if not GNU_TIME.is_file():
        return False
    probe = subprocess.run([str(GNU_TIME), "-f", "%M", "-o", os.devnull, "true"],
                           capture_output=True)
    return probe.returncode == 0


USE_TIME = gnu_time()
MEMORY_HOW = "child max RSS, /usr/bin/time -f %M" if USE_TIME else \
    "child max RSS via wait4, an upper bound: includes this process's RSS at fork"


# A user's environment: bytecode is written (the warm-up runs leave .pyc files), and the
# build's cache lives in this run's own folder (set by measure_processes).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_timed(argv: Sequence[str], tree: TreePeak | None = None,
              env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run a command to completion; (wall seconds, the child's peak RSS in MiB). With
    ``tree``, the process tree's memory is sampled into it while the command runs; ``env``
    is added to the children's environment."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        wrapped = [str(GNU_TIME), "-f", "%M", "-o", rss.name, *argv] if USE_TIME else list(argv)
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env={**CHILD_ENV, **(env or {})})
        sampler = TreeSampler(proc.pid) if tree is not None else None
        if sampler:
            with sampler as peak:
                _, status, usage = os.wait4(proc.pid, 0)
            tree.rss, tree.pss = max(tree.rss, peak.rss), max(tree.pss, peak.pss)
            tree.processes = max(tree.processes, peak.processes)
        else:
            _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if proc.returncode != 0:
            last = err.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
            raise RuntimeError(f"{' '.join(argv[1:4])}...: exit {proc.returncode}: {last[0]}")
        kib = usage.ru_maxrss
        if USE_TIME:
            text = rss.read().split()
            kib = int(text[-1]) if text and text[-1].isdigit() else kib
    return seconds, kib / 1024


def protograf_python() -> str | None:
    """An interpreter that imports protograf: $PROTOGRAF_PYTHON, .venv-protograf/ or this
    venv's. Asked in a child process so importing it cannot disturb this one."""
    for candidate in (os.environ.get("PROTOGRAF_PYTHON"),
                      str(ROOT / ".venv-protograf" / "bin" / "python"), PY):
        if not candidate or not Path(candidate).is_file():
            continue
        probe = subprocess.run([candidate, "-c", "import protograf, yaml"],
                               capture_output=True, cwd=ROOT)
        if probe.returncode == 0:
            return candidate
    return None


def _spin() -> None:
    total = 0
    for i in range(4_000_000):
        total += i


def effective_cores() -> float:
    """How many cores this machine gives us now: one CPU-bound process, then one per core at
    once. On a shared VM a neighbour can take a core away; "both cores busy" targets cannot
    hold then, and the report says so instead of hiding it."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    _spin()
    alone = time.perf_counter() - start
    cores = os.cpu_count() or 1
    start = time.perf_counter()
    workers = [context.Process(target=_spin) for _ in range(cores)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    together = time.perf_counter() - start
    return min(float(cores), cores * alone / together)


def measure_processes(rounds: int, five: bool, out: Path,
                      with_protograf: bool = True) -> dict[str, Runs]:
    """Alternate the contenders within each round (protograf: the first round only); returns
    their runs by key, the five-kit build's with its process tree's memory."""
    CHILD_ENV["PNP_CACHE_DIR"] = str(out / "cache")
    commands: dict[str, tuple[str, list[str]]] = {
        "kit": (f"one kit ({GAME})",
                [PY, "-m", "generator", "build", GAME, "--out", str(out / "kit")]),
        "plain": ("plain ReportLab deck",
                  [PY, str(BENCH / "plain_deck.py"), str(out / "plain.pdf")]),
    }
    protograf = protograf_python() if with_protograf else None
    if not with_protograf:
        print("protograf: skipped (--skip-protograf)")
    elif protograf:
        (out / "protograf").mkdir()
        commands["protograf"] = ("protograf deck (one run)", [
            protograf, str(BENCH / "protograf_deck.py"), str(out / "protograf" / "deck.pdf")])
    else:
        print(PROTOGRAF_NOTE)
    for label, args in FRONT_DOOR:  # each alone: what a user waits for, imports included
        commands[label] = (label, [PY, "-m", "generator", *args])
    envs: dict[str, dict[str, str]] = {}
    if five:
        commands["five"] = (f"all five kits ({os.cpu_count()} cores)",
                            [PY, "-m", "generator", "build", "--out", str(out / "five")])
        # The same build with nothing from earlier runs (no faces, no playouts): what the
        # first build after installing, or after editing every game, costs.
        commands["cold"] = ("all five kits, PNP_CACHE=0",
                            [PY, "-m", "generator", "build", "--out", str(out / "cold")])
        envs["cold"] = {"PNP_CACHE": "0"}
    runs = {key: Runs(label) for key, (label, _) in commands.items()}
    for key, (_, argv) in commands.items():  # untimed: .pyc files and the cache exist
        if key == "protograf":
            continue
        try:
            run_timed(argv, env=envs.get(key))
        except RuntimeError as exc:
            runs[key].failed = f"warm-up: {exc}"
    for round_ in range(rounds):
        for key, (_, argv) in commands.items():
            if runs[key].failed or (key == "protograf" and round_ > 0):
                continue
            tree = runs[key].tree if key == "five" and available() else None
            try:
                seconds, mib = run_timed(argv, tree, envs.get(key))
            except RuntimeError as exc:
                runs[key].failed = str(exc)
                continue
            runs[key].seconds.append(seconds)
            runs[key].peak_mib.append(mib)
    return runs


def _reader(stream: IO[str], lines: queue.Queue[tuple[float, str]]) -> None:
    """Stamp each line of the watcher's stdout when it arrives (perf_counter)."""
    for line in iter(stream.readline, ""):
        lines.put((time.perf_counter(), line.rstrip("\n")))
    lines.put((time.perf_counter(), ""))


def _wait_for(lines: queue.Queue[tuple[float, str]], pattern: str,
              timeout: float) -> tuple[float, str]:
    """The first line matching ``pattern`` within ``timeout`` s; raises TimeoutError."""
    deadline = time.monotonic() + timeout
    regex = re.compile(pattern)
    while (left := deadline - time.monotonic()) > 0:
        try:
            stamp, line = lines.get(timeout=left)
        except queue.Empty:
            break
        if regex.search(line):
            return stamp, line
    raise TimeoutError(f"no line matching {pattern!r} in {timeout:.0f} s")


def measure_watch(edits: int, out: Path) -> tuple[list[float], list[float]]:
    """`pnp watch` on a fresh `pnp init` project: for each one-line edit of game.yaml, (a) the
    wall time from the write to the watcher's ``rebuilt`` line (what the designer waits for,
    including the change notification and debounce) and (b) the build time it reports."""
    project = out / "watchgame"
    subprocess.run([PY, "-m", "generator", "init", str(project)], cwd=ROOT, check=True,
                   capture_output=True)
    data = project / "game.yaml"
    proc = subprocess.Popen([PY, "-u", "-m", "generator", "watch", str(project)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    walls: list[float] = []
    reported: list[float] = []
    try:
        _wait_for(lines, r"^watching ", 60)
        original = data.read_text(encoding="utf-8")
        for n in range(edits):
            time.sleep(0.5)  # let the watcher settle: one edit, one batch
            edited = original.replace("name: Dawn,", f"name: Dawn {n + 1},", 1)
            if edited == original:
                raise RuntimeError("game.yaml of `init` no longer has the 'Dawn' card to edit")
            start = time.perf_counter()
            data.write_text(edited, encoding="utf-8")
            stamp, line = _wait_for(lines, r"^(rebuilt |error: )", 30)
            if line.startswith("error: "):
                raise RuntimeError(f"the rebuild failed: {line}")
            walls.append(stamp - start)
            found = re.search(r" in ([0-9.]+) s", line)
            if found:
                reported.append(float(found.group(1)))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
    return walls, reported


def main(argv: Sequence[str] | None = None) -> int:
    """Print the whole-process figures and a summary line; always 0 (a report, not a test)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--edits", type=int, default=3, help="watch edits to time (default 3)")
    ap.add_argument("--skip-five", action="store_true", help="skip the five-kit build")
    ap.add_argument("--skip-watch", action="store_true", help="skip the watch rebuild")
    ap.add_argument("--skip-protograf", action="store_true",
                    help="skip protograf even where it is installed")
    args = ap.parse_args(argv)
    rounds = max(1, args.rounds)
    print(f"whole process: {rounds} alternating rounds, {os.cpu_count()} cores "
          f"({effective_cores():.1f} effective now: CPU-bound work on every core at once), "
          f"load {os.getloadavg()[0]:.2f} (busy neighbours make these noisy)")
    results: list[tuple[str, bool]] = []
    out = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    try:
        runs = measure_processes(rounds, not args.skip_five, out, not args.skip_protograf)
        for r in runs.values():
            print("  " + r.line())
        kit, plain = runs["kit"], runs["plain"]
        if not (kit.failed or plain.failed):
            ratio = kit.median / plain.median
            ok = ratio <= KIT_VS_PLAIN_MAX
            results.append(("kit/plain", ok))
            print(f"one kit / plain ReportLab deck: {ratio:.2f}x "
                  f"(target <= {KIT_VS_PLAIN_MAX}x) {verdict(ok)}")
        if "protograf" in runs and not (runs["protograf"].failed or kit.failed):
            ratio = runs["protograf"].median / kit.median
            ok = ratio >= PROTOGRAF_VS_KIT_MIN
            results.append(("protograf/kit", ok))
            print(f"protograf deck / one kit: {ratio:.2f}x "
                  f"(target >= {PROTOGRAF_VS_KIT_MIN}x) {verdict(ok)}")
        for label, _ in FRONT_DOOR:
            door = runs[label]
            if not door.failed:
                ok = door.median <= FRONT_DOOR_MAX_S
                results.append((label, ok))
                print(f"{label}: {door.median:.3f} s (target <= {FRONT_DOOR_MAX_S} s) "
                      f"{verdict(ok)}")
        five = runs.get("five")
        if five and not five.failed:
            ok = five.median <= FIVE_KITS_MAX_S
            results.append(("five kits", ok))
            print(f"all five kits, warm, both cores: {five.median:.2f} s "
                  f"(target <= {FIVE_KITS_MAX_S} s) {verdict(ok)}")
        cold = runs.get("cold")
        if cold and not cold.failed:
            print(f"all five kits, cold (PNP_CACHE=0: every face drawn, every playout "
                  f"played; no target): {cold.median:.2f} s")
        memory = five if five and not five.failed else kit
        if not memory.failed:
            largest = max(memory.peak_mib)
            tree = memory.tree
            if tree.rss:  # the whole tree, parent and workers together: the honest figure
                peak = tree.rss_mib
                how = (f"sum of the RSS of its {tree.processes} processes, sampled; "
                       f"PSS sum {tree.pss_mib:.0f} MiB; largest single process {largest:.0f} "
                       f"MiB")
            else:
                peak, how = largest, MEMORY_HOW
            ok = peak < PEAK_MAX_MIB
            which = "full build" if memory is five else "one kit only, full build skipped"
            results.append(("peak memory", ok))
            print(f"peak memory ({which}; {how}): {peak:.0f} MiB "
                  f"(target < {PEAK_MAX_MIB:.0f} MiB) {verdict(ok)}")
        if not args.skip_watch:
            try:
                walls, reported = measure_watch(max(1, args.edits), out)
            except (RuntimeError, TimeoutError, subprocess.CalledProcessError) as exc:
                print(f"watch rebuild: failed ({exc})")
                results.append(("watch", False))
            else:
                wall = statistics.median(walls)
                ok = wall <= WATCH_MAX_S
                results.append(("watch", ok))
                own = f"{statistics.median(reported):.2f} s" if reported else "n/a"
                print(f"watch rebuild, one-line edit: {wall:.2f} s write-to-'rebuilt' median of "
                      f"{len(walls)} (watcher's own build time {own}; "
                      f"target <= {WATCH_MAX_S} s) {verdict(ok)}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    summary("whole-process", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
