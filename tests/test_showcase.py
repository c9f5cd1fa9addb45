"""The showcase project (examples/showcase/): issue 13's "done when" as a designer meets it.

One small game whose cards carry an SVG picture, a photo cropped around a focus point, the
project's own fonts, CSS colour names, a translucent band and rule lines in rich text with
inline icons. It must build to PDF and PNG from its own folder, and each of those features
must be really there in what is printed: vector paths (not a picture) for the SVG, the photo
as one image, the project's font embedded, the bold word in the bold face, the inline icon
drawn on the rule line, and the two renderers agreeing on every card (tests/parity.py).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.core import paths
from generator.data.files import project
from generator.frontends.cli import main

from .parity import compare_face

pytestmark = pytest.mark.slow  # every test here builds or exports kits, or starts processes

SHOWCASE = paths.ROOT / "examples" / "showcase"


@pytest.fixture(scope="module")
def built(run_once) -> Path:
    """The showcase copied to a temporary folder and built there to PDF and PNG (once per
    test run; the tests only read it)."""
    def make(root: Path) -> None:
        folder = root / "showcase"
        shutil.copytree(SHOWCASE, folder, ignore=shutil.ignore_patterns("output"))
        try:
            assert main(["build", str(folder)]) == 0
            assert main(["png", str(folder)]) == 0
        finally:
            project.use(project.Project())

    root, _ = run_once("showcase", make)
    return root / "showcase" / "output" / "harbour-lights"


def _forms(reader: PdfReader) -> dict[str, object]:
    """Every form XObject of the document by name, nested forms included."""
    found: dict[str, object] = {}

    def walk(resources) -> None:
        xobjects = (resources or {}).get("/XObject") or {}
        for name, ref in xobjects.items():
            obj = ref.get_object()
            if name in found:
                continue
            found[name] = obj
            walk(obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def test_the_showcase_builds_with_its_features_in_the_pdf(built, page_texts, page_chars):
    pdf = built / "harbour-lights.pdf"
    reader = PdfReader(pdf)
    forms = _forms(reader)
    images = [name for name, obj in forms.items() if obj.get("/Subtype") == "/Image"]
    svg_forms = [obj for name, obj in forms.items() if ".svg" in name]
    # The photo is the only picture; the lighthouse is vector art drawn once and reused.
    assert len(images) == 1
    assert len(svg_forms) == 1
    assert b" c\n" in svg_forms[0].get_data() or b" c " in svg_forms[0].get_data()
    fonts = {str(f.get_object().get("/BaseFont")) for obj in forms.values()
             for f in ((obj.get("/Resources") or {}).get("/Font") or {}).values()}
    assert any("BitstreamVeraSans-Bold" in name for name in fonts), fonts
    assert any("BitstreamVeraSans-Roman" in name for name in fonts), fonts
    texts = page_texts(pdf)
    chars = [c for n in range(1, len(texts) + 1) for c in page_chars(pdf, n)]
    text = "\n".join(texts)
    for name in ("The Night Keeper", "The Harbour Master", "The Storm Watcher",
                 "The Lamp Trimmer"):
        assert name in text
    # Rich text: "Night:" in the project's bold face, "light the" in its regular face, and
    # the markup itself never printed.
    night = [c for c in chars if c["text"] == "N" and c["size"] < 10]
    assert any("Bold" in c["fontname"] for c in night)
    assert "**" not in text and "[/]" not in text and ":lamp:" not in text
    assert "light the" in text and "and score" in text
    assert "3 points" in text.replace("\xa0", " ")  # joined by a no-break space


def test_the_rule_line_draws_its_inline_icon(built):
    """The lamp icon's form is drawn inside the card faces beside the rule text."""
    reader = PdfReader(built / "harbour-lights.pdf")
    forms = _forms(reader)
    icon_forms = [name for name in forms if ".icon" in name]
    assert icon_forms, "no icon form: the inline :lamp: was not drawn"
    card_faces = [obj for name, obj in forms.items() if ".face" in name
                  and any(i in obj.get_data().decode("latin-1") for i in icon_forms)]
    assert len(card_faces) >= 4  # every keeper card has a rule line with an icon


def test_the_pngs_show_the_cropped_photo_and_the_named_colours(built):
    pngs = sorted((built / "png").rglob("*.png"))
    assert len(pngs) >= 5  # four fronts and the back
    front = next(p for p in pngs if p.name.endswith("night-keeper-front.png"))
    with Image.open(front) as image:
        dpi = image.info["dpi"][0]
        rgb = image.convert("RGB")
        w = rgb.size[0]
        # The photo's sky fills the top of the card (cover: no empty band above it) ...
        top = rgb.getpixel((w // 2, round(2 * dpi / 25.4)))
        assert top[2] > 150 and top[2] > top[0]
        # ... and the points disc is navy, the CSS colour name of this keeper.
        bleed = (w - round(63.5 * dpi / 25.4)) / 2
        disc = rgb.getpixel((round(bleed + (63.5 - 15) * dpi / 25.4),
                             round(bleed + 46 * dpi / 25.4)))
        assert disc[2] > 100 and disc[0] < 30 and disc[1] < 30, disc


def test_both_renderers_agree_on_every_showcase_face():
    from generator.data import load_game
    from generator.orchestration.drawing import game_theme, render_faces
    from generator.orchestration.options import BuildOptions

    try:
        game = load_game(str(SHOWCASE / "game.yaml"))  # its folder becomes the project
        opts = BuildOptions()
        theme = game_theme(game, opts)
        faces = []
        for comp in game.components:
            fronts, backs = render_faces(game, comp, theme, opts)
            faces += dict.fromkeys([*fronts, *(backs or [])])
        assert len(faces) == 5  # four keepers and their shared back
        for face in faces:
            result = compare_face(face)
            assert result.ok, result.describe()
    finally:
        project.use(project.Project())
