"""Faces are handed what they read (generator/core/drawing.py's ``FaceInputs``).

Drawing a whole kit resolves no font name, looks up no name loading resolved and writes
nothing into the translation record: the font book resolved every name at load, the model
holds what loading found, and what a face would tell the record comes back in its result,
told to the session once per face by the orchestration. And a face is drawn from a
hand-made font book, translator and resolver alone: no project on disk, no build.
"""
from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, ClassVar

import pytest

from generator.core import paths
from generator.core import primitives as p
from generator.core.drawing import FaceInputs, FontError, Picture, Told, Unusable
from generator.core.errors import DataError
from generator.core.model import FaceTemplate
from generator.core.vector import IconDef
from generator.core.yamlfile import load_yaml
from generator.data import load_game
from generator.data.design import lookup
from generator.data.design.icons import load_icon
from generator.data.translation import i18n
from generator.data.typefaces import fonts, project_fonts
from generator.faces import template
from generator.orchestration import drawing
from generator.orchestration.build import BuildOptions, build_pdf

# -- a whole kit drawn --------------------------------------------------------------------------

SESSION_WRITES = ("note", "miss", "check_words", "_missing", "lookup", "message", "replay",
                  "record", "blank_cells")


@pytest.fixture
def counted(monkeypatch) -> Counter[str]:
    """What drawing faces (``draw_face``, as the build calls it) asked of the data layer:
    font names resolved, the build's fonts fetched, names looked up, the translation
    record fetched or written. Counted only while a face is being drawn."""
    seen: Counter[str] = Counter()
    depth = [0]
    looked_up = seen.looked_up = []  # type: ignore[attr-defined]

    def counting(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                seen[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(fonts, "resolve", counting("fonts.resolve", fonts.resolve))
    monkeypatch.setattr(project_fonts, "in_use", counting("project_fonts.in_use",
                                                          project_fonts.in_use))
    real_find = lookup.find

    def find(kind: str, name: object, beside: Path | None = None) -> Any:
        if depth[0]:
            looked_up.append((kind, name))
        return real_find(kind, name, beside)

    monkeypatch.setattr(lookup, "find", find)
    monkeypatch.setattr(i18n, "current", counting("i18n.current", i18n.current))
    for method in SESSION_WRITES:
        monkeypatch.setattr(i18n.Session, method,
                            counting(f"Session.{method}", getattr(i18n.Session, method)))
    real_draw = drawing.draw_face

    def draw(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        try:
            return real_draw(*args, **kwargs)
        finally:
            depth[0] -= 1

    def faces(*args: Any, **kwargs: Any) -> Any:
        seen["faces drawn"] += 1
        return draw(*args, **kwargs)

    monkeypatch.setattr(drawing, "draw_face", faces)
    monkeypatch.setenv("PNP_CACHE", "0")  # every face drawn now, none from the face cache
    return seen


# The names these kits compute while drawing (``include: "{{ ... }}"`` of a rules page's
# worked example): known only then, looked up through the Resolver handed in.
COMPUTED = {"moving-target": [("face", "moving-target-example")],
            "monster-day": [("face", "decktet-village-example")]}


@pytest.mark.slow  # builds whole kits, each face drawn (its own build: the count is in it)
@pytest.mark.parametrize(("game", "lang"), [("moving-target", "en"), ("monster-day", "en"),
                                            ("moving-target", "fr")])
def test_drawing_a_kit_fetches_nothing(game, lang, counted, tmp_path):
    collecting = i18n.collect() if lang != "en" else nullcontext([])
    with collecting as missing:
        target, _ = build_pdf(game, BuildOptions(out_dir=tmp_path, lang=lang))
    assert target.stat().st_size > 10_000
    drawn = counted.pop("faces drawn")
    assert drawn >= 50  # the whole deck and its rules were drawn, none from a cache
    assert counted == Counter()  # no font resolved, no record fetched or written
    known = load_game(game).known  # what loading resolved is never looked up again
    assert counted.looked_up == COMPUTED[game]  # type: ignore[attr-defined]
    assert not [name for kind, name in counted.looked_up  # type: ignore[attr-defined]
                if name in known.icons or any(key[0] == name for key in known.templates)]
    if lang != "en":
        assert missing  # ...and the record still heard what the faces did not translate


@pytest.mark.slow  # builds a whole kit
def test_the_count_sees_a_face_that_fetches(counted, tmp_path, monkeypatch):
    """The count is not blind: a face that resolves a font and writes into the record
    while it draws (as faces did before they were handed their inputs) is counted."""
    real = template._render_face

    def fetching(*args: Any, **kwargs: Any) -> Any:
        fonts.resolve("sans")
        i18n.current().note("Queen")
        return real(*args, **kwargs)

    monkeypatch.setattr(template, "_render_face", fetching)
    build_pdf("moving-target", BuildOptions(out_dir=tmp_path))
    drawn = counted.pop("faces drawn")
    assert counted["fonts.resolve"] == drawn and counted["Session.note"] == drawn
    assert counted["i18n.current"] == drawn and counted["project_fonts.in_use"] >= drawn


DRAWING_MODULES = ("template", "text", "rich_layout", "markup", "ink", "hyphenate")


@pytest.mark.parametrize("module", DRAWING_MODULES)
def test_the_drawing_modules_never_read_the_build_context(module):
    """What a face reads is in its signature: the drawing modules never call
    ``context.current()`` (the face cache, which keys and replays, is not drawing)."""
    source = (paths.ROOT / "generator" / "faces" / f"{module}.py").read_text(encoding="utf-8")
    calls = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute)
             and node.attr == "current"]
    assert calls == []


# -- a face drawn from hand-made inputs ---------------------------------------------------------

class MonoBook:
    """A font book of one made-up monospaced font, ``mono``: every character 0.5 em wide."""

    names: ClassVar[set[str]] = {"mono"}

    def __init__(self) -> None:
        self.measured: list[str] = []

    def _known(self, name: object) -> str:
        if name not in self.names:
            raise FontError(f"expected a font key (mono), got {name!r}")
        assert isinstance(name, str)
        return name

    def check(self, name: object) -> str:
        return self._known(name)

    def font_key(self, name: str) -> object:
        return ("mono", self._known(name))

    def text_width_mm(self, name: str, text: str, size_pt: float) -> float:
        self._known(name)
        self.measured.append(text)
        return len(text) * 0.5 * size_pt * p.PT_TO_MM

    def vertical_metrics(self, name: str) -> tuple[float, float]:
        return 0.8, -0.2

    def cap_height(self, name: str) -> float:
        return 0.7

    def runs(self, name: str, text: str) -> list[tuple[str, str]]:
        return [(text, name)] if text else []

    def missing_glyphs(self, name: str, text: str) -> str:
        return "".join(sorted({ch for ch in text if ord(ch) > 0x7e and not ch.isspace()}))

    def glyph_refusal(self, name: str, text: str) -> str | None:
        missing = self.missing_glyphs(name, text)
        return f"font {name} has no glyph for {missing!r}" if missing else None

    def variant(self, name: str, bold: bool, italic: bool) -> str:
        return name


class Catalogue:
    """A translator of a two-entry French catalogue."""

    lang = "fr"
    translating = True
    strings: ClassVar[dict[str, str]] = {"Draw a card": "Piochez une carte", "Queen": "Dame"}

    def text(self, raw: Any, file: str, line: int | None, told: Told
             ) -> tuple[Any, bool, tuple[str, int | None] | None]:
        found = self.strings.get(raw)
        if found is None:
            told.miss(file, line, raw, "text")
            told.note(raw)
            return raw, False, None
        told.note(found)
        return found, True, ("catalogue.yaml", 3)

    @contextmanager
    def drawing(self, told: Told) -> Iterator[None]:
        yield


class Icons:
    """A resolver that knows one icon by a computed name."""

    def __init__(self, heart: IconDef) -> None:
        self.heart = heart
        self.asked: list[object] = []

    def icon(self, name: object) -> IconDef:
        self.asked.append(name)
        if name != "suit-heart":
            raise Unusable(f"no icon {name!r}")
        return self.heart

    def face(self, name: object, beside: Path | None = None) -> FaceTemplate:
        raise Unusable(f"no template {name!r}")

    def image(self, path: object) -> Picture:
        raise Unusable(f"no image {path!r}")


FACE = """\
elements:
  - text: {x: 0, y: 0, w: 60, h: 10, text: "Draw a card", font: mono, size: 10}
  - text: {x: 0, y: 20, w: 60, h: 10, text: "Discard {{ item.n }}", font: mono, size: 10}
  - icon: {name: "suit-{{ item.suit }}", x: 1, y: 40, w: 5, h: 5}
"""


def face_template(folder: Path, text: str) -> FaceTemplate:
    (folder / "card.yaml").write_text(text, encoding="utf-8")
    return FaceTemplate("card", load_yaml(folder / "card.yaml"))


@pytest.fixture
def inputs() -> FaceInputs:
    return FaceInputs(MonoBook(), Catalogue(), Icons(load_icon("heart")))


def test_a_face_is_drawn_from_the_inputs_it_is_handed(inputs, tmp_path):
    drawn = template.draw_face(face_template(tmp_path, FACE), 63.5, 88.9,
                               {"item": {"n": 2, "suit": "heart"}}, inputs)
    first, second, icon = drawn.face.prims
    assert isinstance(first, p.Text) and isinstance(second, p.Text)
    assert [line for _, _, line in first.lines] == ["Piochez une carte"]
    assert first.font == "mono" and first.size == 10
    # the book's metrics place it: the ascent-to-descent band (0.8 + 0.2 = 1 em) centred in
    # a line box of 1.18 em, the baseline 0.8 em below the band's top
    assert first.lines[0][1] == pytest.approx(round((0.09 + 0.8) * 10 * p.PT_TO_MM, 4))
    assert [line for _, _, line in second.lines] == ["Discard 2"]
    assert isinstance(icon, p.Icon) and icon.name == "suit-heart"
    assert inputs.resolver.asked == ["suit-heart"]
    assert "Piochez une carte" in inputs.fonts.measured
    # What the drawing tells the record, in order: found, then missing (told, not written).
    file = str(tmp_path / "card.yaml")
    assert drawn.told.events == [
        ["note", "Piochez une carte"],
        ["checked", file, 2, "Piochez une carte"],
        ["miss", file, 3, "Discard {{ item.n }}", "text", ""],
        ["note", "Discard {{ item.n }}"]]


def test_a_text_too_wide_for_the_hand_made_font_shrinks(inputs, tmp_path):
    """Fitting uses the book's widths: 24 characters of 0.5 em fit 60 mm at 14 pt, not at
    16 pt (a 16 pt em of 5.64 mm gives 67.7 mm)."""
    face = face_template(tmp_path, 'elements:\n  - text: {x: 0, y: 0, w: 60, h: 30, '
                         'text: "abcdefghijklmnopqrstuvwx", font: mono, size: 16, '
                         'min_size: 6}\n')
    text = template.draw_face(face, 63.5, 88.9, {}, inputs).face.prims[0]
    assert isinstance(text, p.Text) and text.size == 14.0


def test_a_font_the_book_does_not_know_names_the_line(inputs, tmp_path):
    face = face_template(tmp_path, 'elements:\n  - text: {x: 0, y: 0, w: 9, h: 9, text: "x", '
                         'font: serif}\n')
    with pytest.raises(DataError) as failed:
        template.draw_face(face, 63.5, 88.9, {}, inputs)
    assert (failed.value.line, failed.value.field) == (2, "elements[0].text.font")
    assert failed.value.expected == "expected a font key (mono), got 'serif'"
