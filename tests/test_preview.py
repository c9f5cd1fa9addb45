"""The HTML preview in a real headless browser (Debian's chromium via selenium): it loads with
no console errors, every image resolves, and a screenshot shows the page."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from generator.data.files import project
from generator.orchestration.exporters.preview import write_preview
from generator.orchestration.options import BuildOptions
from tests import needs

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

CHROMIUM = needs.chromium()
DRIVER = needs.chromedriver()
needs_browser = pytest.mark.needs("browser")  # skipped without it; under CI=1 a failure


@pytest.fixture(scope="module")
def preview(run_once):
    """The preview of two games, written once per test run (the tests only read it): Moving
    Target, and `pnp init`'s starter project (a second game, with no rules engine, of a third
    of the faces to export at 300 dpi)."""
    def make(out):
        with project.using(project.Project()):
            project.init_project(out / "starter")
        return str(write_preview(BuildOptions(out_dir=out), n_games=20, games_wanted=[
            "moving-target", str(out / "starter" / "game.yaml")]))

    return Path(run_once("preview", make)[1])


def test_preview_lists_every_component_and_report(preview):
    html = preview.read_text(encoding="utf-8")
    for text in ("Moving Target", "Starter", "Playing cards", "52 pieces",
                 "verified", "seat win rate", "Score tokens", "<table class=\"report\">",
                 "moving-target.pdf", "(sheets, 22 pages)", "starter.pdf"):
        assert text in html
    assert "moving-target-sim-2p.png" in {p.name for p in preview.parent.glob("*.png")}



def test_preview_shows_the_balance_report_and_the_deal_questions(preview):
    """The simulation summary is the balance report of ``pnp simulate --compare`` (fair
    shares, decisions, the turn limit, random against greedy), and the verify table carries
    the data file's ``deal:`` answers with their method."""
    html = preview.read_text(encoding="utf-8")
    for text in ("fair share", "legal actions on average", "turn limit:",
                 "random policy against greedy policy, 20 games each",
                 "deal: a 3-player starting hand (7 cards) void in some suit",
                 "43.0 % [exact]", "[Monte Carlo, 10000 deals, seed 1, 95 % interval"):
        assert text in html


def test_preview_shows_every_piece_at_print_resolution(preview):
    """Every distinct face of the deck (52 fronts, each beside the deck's one back) is linked
    at 300 dpi."""
    html = preview.read_text(encoding="utf-8")
    deck = sorted(re.findall(r'href="(\.\./moving-target/png/deck/[^"]+-front\.png)"', html))
    assert len(deck) == 52
    with Image.open(preview.parent / deck[0]) as img:
        dpi = img.info["dpi"]
        assert round(dpi[0]) == 300 and img.size[0] > 63 / 25.4 * 300  # poker width + bleed
    backs = re.findall(r'href="(\.\./moving-target/png/deck/back\.png)"', html)
    assert len(backs) == 52
    # The report is a table with one row per finding, failures located.
    assert html.count("<tr><td class=") >= 10
    # Each face is captioned with its piece's label (the file name is a slug of it), and
    # how many copies print when more than one.
    captions = re.findall(r"<figcaption>([^<]*)</figcaption>", html)
    assert "Ace of Spades" in captions and "Queen of Hearts" in captions, captions[:8]
    assert any(c.startswith("5 points") and "&times;6" in c for c in captions), captions


@needs_browser
def test_preview_in_headless_chromium(preview, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,2000",
                 "--allow-file-access-from-files", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.get(preview.as_uri())
        assert driver.title == "Print-and-play kits: preview"
        broken = driver.execute_script(
            "return Array.from(document.images)"
            ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);")
        count = driver.execute_script("return document.images.length;")
        assert count >= 10 and broken == []
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
        shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("L")
    finally:
        driver.quit()
    assert shot.size[0] >= 1000
    # Not a blank page: the header band and thumbnails give real contrast.
    assert ImageStat.Stat(shot).stddev[0] > 20
    shot.save(tmp_path / "preview.png")
