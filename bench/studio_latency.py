"""`make bench`: how soon an edit shows in the studio (``pnp serve``, issue 28).

What a designer waits for, end to end: ``pnp serve`` runs as its own process on a fresh
``pnp init`` project, a real browser (headless chromium through selenium) shows it, and for
each one-card text edit (a card's name in game.yaml) we time from the file's write to the
``load`` event of the new picture in the page: the sheet side showing that card (the page
stamps each picture's load with ``Date.now()``, the same clock as ``time.time()`` here; the
gallery's pictures load when the gallery is shown). Target: the median within 0.5 s.

Skipped, with a line saying why, where selenium or chromium is missing (``make test``'s
environment has both: .ci/run installs chromium).

    python bench/studio_latency.py [--edits N]
"""
from __future__ import annotations

import argparse
import itertools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
TARGET_S = 0.5
NAMES = ["Dawn", "Sunrise", "Daybreak", "Aurora", "First Light", "Daylight", "Morning Star",
         "Cockcrow", "Sunup", "Early Light", "Matins"]  # never a name seen before: new pictures


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                 "--disable-dev-shm-usage"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def _wait(driver: Any, script: str, patience: float = 60.0) -> Any:
    end = time.time() + patience
    while time.time() < end:
        found = driver.execute_script(script)
        if found:
            return found
        time.sleep(0.005)
    raise TimeoutError(script[:80])


def measure(edits: int) -> list[float]:
    """Seconds from each edit's write to its first new picture's load."""
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-studio-"))
    project = work / "game"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PNP_CACHE_DIR"] = str(work / "cache")
    subprocess.run([PY, "-m", "generator", "init", str(project)], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    log = work / "serve.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([PY, "-m", "generator", "serve", str(project), "--no-open"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    driver = None
    try:
        url = None
        end = time.time() + 60
        while url is None and time.time() < end:
            time.sleep(0.05)
            found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", log.read_text())
            url = found.group(1) if found else None
        if url is None:
            raise TimeoutError("pnp serve printed no address")
        driver = _browser()
        driver.get(url)
        _wait(driver, "return window.studio && window.studio.state && "
                      "!window.studio.state.building && window.studio.loads.length > 0")
        time.sleep(1.0)
        data = project / "game.yaml"
        text = data.read_text(encoding="utf-8")
        firsts = []
        for old, new in list(itertools.pairwise(NAMES))[:edits]:
            # every picture the page knew before the write (loaded or still loading)
            seen = driver.execute_script(
                "const d = window.studio.state.drawing; "
                "return [...window.studio.loads.map(l => l.src), "
                "...d.sheets.flatMap(s => [s.front, s.back].filter(Boolean).map(p => p.picture)), "
                "...d.components.flatMap(c => c.faces.flatMap(f => [f.front, f.back]))]"
                ".filter(Boolean)")
            text = text.replace(f"name: {old},", f"name: {new},", 1)
            start = time.time()
            data.write_text(text, encoding="utf-8")
            loads = _wait(driver, f"const s = new Set({seen!r}); "
                                  "const n = window.studio.loads.filter(l => !s.has(l.src) "
                                  f"&& l.t >= {start * 1000:.0f}); "
                                  "return n.length >= 1 && !window.studio.state.building "
                                  "? n : null")
            firsts.append(min(load["t"] / 1000 for load in loads) - start)
            time.sleep(0.8)  # one edit, one batch: let the watcher settle
        return firsts
    finally:
        if driver is not None:
            driver.quit()
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(work, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--edits", type=int, default=5, help="edits to time (default 5)")
    args = ap.parse_args(argv)
    try:
        import selenium  # noqa: F401  (the browser test's package: requirements-dev.lock)
    except ImportError:
        print("studio edit-to-picture: skipped (selenium is not installed: make venv)")
        return 0
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or \
            not shutil.which("chromedriver"):
        print("studio edit-to-picture: skipped (chromium or chromedriver is not installed)")
        return 0
    try:
        firsts = measure(max(1, min(args.edits, len(NAMES) - 1)))
    except (TimeoutError, subprocess.CalledProcessError) as exc:
        print(f"studio edit-to-picture: failed ({exc}) FAIL")
        return 0
    first = statistics.median(firsts)
    ok = first <= TARGET_S
    print(f"studio edit-to-picture (pnp serve, headless chromium, one card's name): new "
          f"picture loaded {first:.2f} s after the write, median of {len(firsts)} (min "
          f"{min(firsts):.2f}, max {max(firsts):.2f}); target <= {TARGET_S} s "
          f"{'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
