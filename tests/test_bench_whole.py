"""Smoke test of bench/whole_process.py (issue 14): it runs and prints each figure with a
number and its target. Not a performance test: the numbers are not asserted on, only that the
report has them; one round and one watch edit keep it fast, and the five-kit build is left out
(--skip-five) because it alone takes seconds a run, and protograf (--skip-protograf) because
its deck takes tens of seconds where it is installed."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

ROOT = Path(__file__).resolve().parent.parent


def test_whole_process_report_has_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "whole_process.py"), "--rounds", "1",
         "--edits", "1", "--skip-five", "--skip-protograf"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    number = r"[0-9]+(\.[0-9]+)?"
    assert re.search(rf"one kit \(moving-target\): median {number} s", out), out
    assert re.search(rf"plain ReportLab deck: median {number} s", out), out
    assert re.search(rf"one kit / plain ReportLab deck: {number}x \(target <= 2.5x\) "
                     r"(PASS|FAIL)", out), out
    assert re.search(rf"peak memory .*: {number} MiB \(target < 150 MiB\) (PASS|FAIL)", out), out
    assert re.search(rf"watch rebuild, one-line edit: {number} s .*target <= 0.3 s\) "
                     r"(PASS|FAIL)", out), out
    assert "protograf: skipped (--skip-protograf)" in out, out
    assert re.search(r"whole-process summary: \d+/\d+ targets met", out), out
