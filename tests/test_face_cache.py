"""The face cache (generator/faces/face_cache.py, generator/faces/face_codec.py): a warm build draws
nothing it drew before from the same inputs and prints the very same bytes; any edit of
what a face is drawn from (template, data, image, theme) draws it again, found by content
(a rewrite keeping size and time too), and an edit of one game's files leaves every other
game's entries alone; a tampered cache file is a miss, never a crash or a wrong card."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.core import cache, memo, paths
from generator.core import primitives as p
from generator.core.drawing import valid_events
from generator.core.elements import PRIMITIVE_CLASSES
from generator.data.files import project
from generator.data.tables.loader import load_game
from generator.data.translation import i18n
from generator.faces import face_cache, face_codec
from generator.orchestration import drawing
from generator.orchestration.build import build_pdf
from generator.orchestration.options import BuildOptions
from tests.designer import edit

CODE = (drawing.__name__,)  # the code drawing runs, as drawing.faces_key names it


@pytest.fixture
def cache_dir(fresh_cache) -> Path:
    return fresh_cache


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The ids of the components whose faces were drawn (not taken from the cache)."""
    seen: list[str] = []
    real = drawing._draw_faces

    def counting(game, comp, *args):
        seen.append(comp.id)
        return real(game, comp, *args)

    monkeypatch.setattr(drawing, "_draw_faces", counting)
    return seen


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "mygame"
    with project.using(project.Project()):
        project.init_project(folder)
    return folder / "game.yaml"


def built(game: Path, out: Path, **options) -> bytes:
    target, _ = build_pdf(str(game), BuildOptions(out_dir=out, **options))
    return target.read_bytes()


def entries(folder: Path) -> list[Path]:
    """The faces entries (not the lists of files their drawing opened)."""
    return sorted(set(folder.glob("faces-*.json")) - set(folder.glob("faces-inputs-*.json")))



# -- whole builds -------------------------------------------------------------------------------

def test_a_warm_build_draws_nothing_and_prints_the_same_bytes(game, tmp_path, cache_dir, drawn,
                                                            monkeypatch):
    cold = built(game, tmp_path / "a")
    assert sorted(set(drawn)) == ["deck", "tokens"]
    assert entries(cache_dir), "the cold build stored its faces"
    drawn.clear()
    warm = built(game, tmp_path / "b")
    assert drawn == []
    assert warm == cold
    monkeypatch.setenv("PNP_CACHE", "0")
    assert built(game, tmp_path / "c") == cold  # and the same as with no cache at all
    assert drawn


@pytest.mark.slow
def test_a_built_in_kit_warm_is_byte_identical(tmp_path, cache_dir, drawn):
    cold, _ = build_pdf("moving-target", BuildOptions(out_dir=tmp_path / "a"))
    count = len(drawn)
    assert count
    warm, _ = build_pdf("moving-target", BuildOptions(out_dir=tmp_path / "b"))
    assert len(drawn) == count
    assert warm.read_bytes() == cold.read_bytes()


@pytest.mark.slow
def test_an_edited_template_is_drawn_again_even_at_the_same_size_and_time(
        game, tmp_path, cache_dir, drawn, page_texts):
    built(game, tmp_path / "a")
    face = game.parent / "faces" / "card.yaml"
    before = os.stat(face)
    edit(face, "text: \"{{ suit.name }}\"", "text: \"{{ suit.id   }}\"")  # same length
    os.utime(face, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the same mtime
    assert os.stat(face).st_size == before.st_size  # nothing forgotten: read by content
    drawn.clear()
    built(game, tmp_path / "b")
    assert "deck" in drawn
    text = "\n".join(page_texts(tmp_path / "b" / "mygame" / "mygame.pdf"))
    assert "sun" in text.split() and "Sun" not in text.split()


@pytest.mark.slow
def test_an_edited_card_and_theme_are_drawn_again(game, tmp_path, cache_dir, drawn, page_texts):
    built(game, tmp_path / "a")
    edit(game, "{name: Dawn, suit: sun, value: 1}", "{name: Daybreak, suit: sun, value: 1}")
    drawn.clear()
    built(game, tmp_path / "b")
    assert "deck" in drawn
    assert "Daybreak" in "\n".join(page_texts(tmp_path / "b" / "mygame" / "mygame.pdf"))
    theme = game.parent / "themes" / "starter.yaml"
    theme.write_text(theme.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    drawn.clear()
    built(game, tmp_path / "c")
    assert drawn == [], "the theme's values are the key: a comment changes none"
    edit(theme, 'suit_sun: "#c26a00"', 'suit_sun: "#c26a01"')
    built(game, tmp_path / "d")
    assert "deck" in drawn


def test_an_image_replaced_by_one_of_other_proportions_is_fitted_again(game, tmp_path,
                                                                      cache_dir, drawn):
    art = game.parent / "art"
    art.mkdir()
    Image.new("RGB", (40, 20), "red").save(art / "pic.png")
    face = game.parent / "faces" / "token.yaml"
    face.write_text(face.read_text(encoding="utf-8") + (
        "  - image: {path: art/pic.png, x: 2, y: 2, w: 10, h: 10, fit: contain}\n"),
        encoding="utf-8")
    built(game, tmp_path / "a")
    Image.new("RGB", (20, 40), "blue").save(art / "pic.png")
    drawn.clear()
    built(game, tmp_path / "b")
    assert "tokens" in drawn


def test_a_tampered_entry_is_a_miss_and_the_kit_is_still_right(game, tmp_path, cache_dir,
                                                             drawn):
    cold = built(game, tmp_path / "a")
    for entry in entries(cache_dir):
        envelope = json.loads(entry.read_text(encoding="utf-8"))
        faces = envelope["value"]["faces"]
        faces[0][4][0][1] = "not a number"  # the first primitive's x
        entry.write_text(json.dumps(envelope), encoding="utf-8")
    drawn.clear()
    assert built(game, tmp_path / "b") == cold
    assert sorted(set(drawn)) == ["deck", "tokens"]


def french_build(game: Path | str, out: Path) -> tuple[bytes, list[i18n.Missing]]:
    """A French kit and the texts it printed in English (what ``build`` counts and ``verify
    --lang fr`` lists)."""
    with i18n.collect() as missing:
        target, _ = build_pdf(str(game), BuildOptions(out_dir=out, lang="fr"))
    return target.read_bytes(), missing


@pytest.mark.slow
def test_a_french_kit_warm_draws_nothing_and_reports_the_same_untranslated_texts(
        tmp_path, cache_dir, drawn):
    cold, cold_missing = french_build("moving-target", tmp_path / "a")
    assert cold_missing, "Moving Target's faces have no French yet: the build says so"
    count = len(drawn)
    warm, warm_missing = french_build("moving-target", tmp_path / "b")
    assert len(drawn) == count, "nothing drawn again"
    assert warm == cold
    assert warm_missing == cold_missing


@pytest.mark.slow
def test_a_french_project_edit_of_its_catalogue_is_drawn_again(game, tmp_path, cache_dir,
                                                               drawn, monkeypatch):
    edit(game.parent / "faces" / "card.yaml", 'text: "{{ suit.name }}"',
         'text: "{{ t(suit.name) }}"')
    messages = game.parent / "messages"
    messages.mkdir()
    catalogue = messages / "fr.yaml"
    catalogue.write_text('strings:\n  "Sun": "Soleil"\n', encoding="utf-8")

    def suits(missing: list[i18n.Missing]) -> list[str]:
        return sorted(m.text for m in missing if m.how == "t()")

    _, before = french_build(game, tmp_path / "a")
    assert suits(before) == ["Leaf", "Moon"]
    catalogue.write_text('strings:\n  "Moon": "Lune"\n', encoding="utf-8")
    drawn.clear()
    pdf, after = french_build(game, tmp_path / "b")
    assert "deck" in drawn
    assert suits(after) == ["Leaf", "Sun"]
    drawn.clear()
    warm, again = french_build(game, tmp_path / "c")
    assert drawn == [] and warm == pdf and again == after
    with monkeypatch.context() as m:
        m.setenv("PNP_CACHE", "0")
        assert french_build(game, tmp_path / "d") == (pdf, after)


def test_replayed_checks_are_made_against_the_session_not_copied():
    """Whether a value printed without t() is untranslated depends on the words translated
    before it: a check replayed after other faces translated its words is not a miss."""
    drawing = i18n.Session("fr")
    with drawing.recording() as told:
        drawing.check_words("card.yaml", 3, "Dawn")
    assert [m.text for m in drawing.missing.values()] == ["Dawn"]
    later = i18n.Session("fr")
    later.note("Dawn")  # an earlier component translated the word this time
    later.replay(told)
    assert later.missing == {}
    fresh = i18n.Session("fr")
    fresh.replay(told)
    assert [(m.file, m.line, m.text, m.how) for m in fresh.missing.values()] == [
        ("card.yaml", 3, "Dawn", "value")]


@pytest.mark.parametrize("events", [
    None, [["note"]], [["miss", "f", 1, "t"]], [["checked", "f", True, "t"]],
    [["run", "rm -rf /"]], [["note", 5]], ["note"],
    [["miss", "f", None, "t", "text"]],  # a cache of before misses had cells: drawn again
])
def test_tampered_language_events_are_a_miss(events):
    assert not valid_events(events)
    assert valid_events([["note", "x"], ["miss", "f", None, "t", "text", ""],
                              ["checked", "f", 2, "v"]])


# -- what the key must see (each case was a stale kit once: warm differed from PNP_CACHE=0) ---

def cold(game: Path | str, out: Path, monkeypatch, **options) -> bytes:
    """The kit as a build with the cache off prints it."""
    with monkeypatch.context() as m:
        m.setenv("PNP_CACHE", "0")
        target, _ = build_pdf(str(game), BuildOptions(out_dir=out, **options))
        return target.read_bytes()


def shrink_card_title(game_folder: Path) -> None:
    edit(game_folder / "faces" / "card.yaml", "size: 13, min_size: 7", "size: 9, min_size: 7")


def test_an_output_folder_inside_faces_does_not_hide_their_edits(game, tmp_path, cache_dir,
                                                                 drawn, monkeypatch):
    out = game.parent / "faces"  # the kit is written into faces/mygame/
    built(game, out)
    shrink_card_title(game.parent)
    drawn.clear()
    assert built(game, out) == cold(game, tmp_path / "cold", monkeypatch)
    assert "deck" in drawn


def test_a_symlinked_data_file_keys_the_folder_its_faces_come_from(game, tmp_path, cache_dir,
                                                                   drawn, monkeypatch):
    """generator/data/files/project.py uses the folder the link leads to; the key must list that
    one."""
    linked = tmp_path / "elsewhere"
    linked.mkdir()
    (linked / "game.yaml").symlink_to(game)
    built(linked / "game.yaml", tmp_path / "a")
    shrink_card_title(game.parent)
    drawn.clear()
    warm = built(linked / "game.yaml", tmp_path / "b")
    assert "deck" in drawn
    assert warm == cold(linked / "game.yaml", tmp_path / "cold", monkeypatch)


def test_the_game_settings_outside_its_data_are_in_the_key(game, tmp_path, cache_dir):
    """The rules module, players, theme name and data file are not part of ``game.data``;
    two data files in one folder that differ only there must not share faces."""
    loaded = load_game(str(game))
    options = {"paper": "a4"}
    key = face_cache.game_key(loaded, {}, options, CODE, [])
    assert key is not None and key == face_cache.game_key(loaded, {}, options, CODE, [])
    other = game.parent / "other.yaml"
    other.write_text(game.read_text(encoding="utf-8"), encoding="utf-8")
    changed = [dataclasses.replace(loaded, rules="moving_target"),
               dataclasses.replace(loaded, players=(3, 5)),
               dataclasses.replace(loaded, theme="classic"),
               dataclasses.replace(loaded, source=other)]
    keys = {face_cache.game_key(g, {}, options, CODE, []) for g in changed}
    assert len(keys) == 4 and key not in keys


def test_a_symlink_pointed_at_another_file_is_drawn_again(game, tmp_path, cache_dir, drawn,
                                                         monkeypatch):
    """Same size, same time, another file: the link is read through, by content."""
    faces = game.parent / "faces"
    one, two = faces / "one.txt", faces / "two.txt"  # inside: faces are confined there
    text = (faces / "card.yaml").read_text(encoding="utf-8")
    one.write_text(text, encoding="utf-8")
    two.write_text(text.replace("size: 13, min_size: 7", "size: 9, min_size: 7"),
                   encoding="utf-8")
    same = os.stat(one)
    os.utime(two, ns=(same.st_atime_ns, same.st_mtime_ns))
    (faces / "card.yaml").unlink()
    (faces / "card.yaml").symlink_to(one)
    built(game, tmp_path / "a")
    (faces / "card.yaml").unlink()
    (faces / "card.yaml").symlink_to(two)
    drawn.clear()
    assert built(game, tmp_path / "b") == cold(game, tmp_path / "cold", monkeypatch)
    assert "deck" in drawn


def test_an_icon_that_comes_to_shadow_a_built_in_one_is_drawn_again(game, tmp_path, cache_dir,
                                                                   drawn, monkeypatch):
    """The resolver notes the files it looked for and did not find: a project icon added
    later under a built-in's name (the moon suit's) is seen, though no file the entry read
    has changed."""
    built(game, tmp_path / "a")
    assert "deck" in drawn
    icons = game.parent / "icons"
    shutil.copy(icons / "sun.yaml", icons / "suit-moons.yaml")
    drawn.clear()
    assert built(game, tmp_path / "b") == cold(game, tmp_path / "cold", monkeypatch)
    assert "deck" in drawn


@pytest.mark.slow
def test_a_rewrite_with_the_same_size_and_time_is_seen_in_a_new_process(
        game, tmp_path, cache_dir):
    """What a fresh ``pnp build`` finds after an editor kept the size and the time."""
    import subprocess
    import sys

    def build_in_a_process(out: Path) -> bytes:
        subprocess.run([sys.executable, "-m", "generator", "build", str(game), "--out",
                        str(out)], check=True, capture_output=True, cwd=paths.ROOT)
        return (out / "mygame" / "mygame.pdf").read_bytes()

    first = build_in_a_process(tmp_path / "a")
    face = game.parent / "faces" / "card.yaml"
    before = os.stat(face)
    edit(face, "size: 13, min_size: 7", "size: 9,  min_size: 7")  # same length
    os.utime(face, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(face).st_size == before.st_size
    again = build_in_a_process(tmp_path / "b")
    assert again != first
    cold_env = {**os.environ, "PNP_CACHE": "0"}
    subprocess.run([sys.executable, "-m", "generator", "build", str(game), "--out",
                    str(tmp_path / "c")], check=True, capture_output=True, cwd=paths.ROOT,
                   env=cold_env)
    assert again == (tmp_path / "c" / "mygame" / "mygame.pdf").read_bytes()


def built_in_copy(tmp_path: Path, game_id: str) -> Path:
    """A copy of the built-in games folder (so one game's files can be edited)."""
    folder = tmp_path / "card_data"
    shutil.copytree(paths.CARD_DATA, folder)
    return folder / f"{game_id}.yaml"


@pytest.mark.slow
def test_an_edit_to_one_game_leaves_every_other_games_entries_alone(tmp_path, cache_dir,
                                                                    drawn, monkeypatch):
    """Two games in one folder: editing one's data file re-keys nothing of the other's (it
    reads none of that game's files; a listing of the folder would have re-keyed both)."""
    moving = built_in_copy(tmp_path, "moving-target")
    boxes = moving.parent / "moving-day-boxes.yaml"
    built(moving, tmp_path / "a")
    built(boxes, tmp_path / "a")
    kept = set(entries(cache_dir))
    edit(moving, "title: Moving Target", "title: Moving Targets")
    drawn.clear()
    built(boxes, tmp_path / "b")
    assert drawn == [], "the other game's faces were all found"
    built(moving, tmp_path / "b")
    assert drawn, "the edited game is drawn again"
    assert kept <= set(entries(cache_dir))


# -- the codec ----------------------------------------------------------------------------------

def test_every_primitive_field_type_is_known_and_none_has_a_post_init():
    for cls in (*PRIMITIVE_CLASSES, p.Origin, p.Face):  # every member of the union
        face_codec._layout(cls.__name__)  # raises Unencodable for an unknown annotation
        assert not hasattr(cls, "__post_init__")  # decode fills the fields directly
        assert dataclasses.is_dataclass(cls) and not hasattr(cls, "__slots__")


numbers = st.one_of(st.integers(-10_000, 10_000),
                    st.floats(-1e4, 1e4, allow_nan=False, allow_infinity=False))
colours = st.one_of(st.none(), st.sampled_from(["#000000", "#ff8800"]))
texts = st.text(max_size=12)
icons = st.builds(p.Icon, texts, numbers, numbers, numbers, numbers, colours, colours,
                  st.sampled_from([0, 90, 180, 270]))
prims = st.one_of(
    st.builds(p.Rect, numbers, numbers, numbers, numbers, colours, colours, numbers, numbers,
              st.one_of(st.none(), st.tuples(numbers, numbers))),
    st.builds(p.Circle, numbers, numbers, numbers, colours, colours, numbers),
    st.builds(p.Ellipse, numbers, numbers, numbers, numbers, colours, colours, numbers),
    st.builds(p.Line, numbers, numbers, numbers, numbers, colours, numbers),
    st.builds(p.Path, st.lists(st.tuples(st.sampled_from("MLCZ"),
                                         st.lists(numbers, max_size=6).map(tuple)),
                               max_size=4).map(tuple), colours, colours, numbers),
    st.builds(p.Text, st.lists(st.tuples(numbers, numbers, texts), max_size=3).map(tuple),
              texts, numbers, colours, st.sampled_from([0, 90]), numbers, numbers,
              st.lists(st.tuples(numbers, numbers, texts, texts, colours),
                       max_size=2).map(tuple),
              st.lists(icons, max_size=2).map(tuple)),
    icons,
    st.builds(p.Image, texts, numbers, numbers, numbers, numbers,
              st.one_of(st.none(), st.tuples(numbers, numbers, numbers, numbers))),
    st.builds(p.Vector, texts, numbers, numbers, numbers, numbers, st.none()),
)
faces = st.builds(
    lambda ps, label, lines: p.Face(63.5, 88.9, 3.0, tuple(ps), label,
                                    tuple(p.Origin(line, True) for line in lines[:len(ps)])),
    st.lists(prims, max_size=5), texts, st.lists(st.one_of(st.none(), st.integers(1, 99)),
                                                 max_size=5))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(faces, max_size=3))
def test_faces_come_back_exactly_as_written(drawn_faces):
    again = face_codec.decode(json.loads(json.dumps(face_codec.encode(drawn_faces))))
    assert again is not None
    assert [repr(f) for f in again] == [repr(f) for f in drawn_faces]
    assert again == drawn_faces


@pytest.mark.parametrize("tamper", [
    lambda v: v[0].__setitem__(0, "Evil"),  # an unknown class
    lambda v: v[0].__setitem__(1, "63.5"),  # a width that is text
    lambda v: v[0].__setitem__(1, True),  # a boolean where a number belongs
    lambda v: v[0].__setitem__(1, 1e999),  # infinity (JSON's 1e999)
    lambda v: v[0].pop(),  # a field missing
    lambda v: v[0][4].append(["Face", 1, 1, 0, [], "", [], ""]),  # a face among primitives
    lambda v: v[0][4][0].__setitem__(0, "Origin"),  # a primitive of another class
    lambda v: v.append("x"),
])
def test_a_tampered_value_is_refused(tamper):
    face = p.Face(10, 20, 3.0, (p.Rect(1, 2, 3, 4, "#000000"),), "x", (p.Origin(3, True),))
    value = face_codec.encode([face])
    tamper(value)
    assert face_codec.decode(value) is None


def test_a_value_that_would_not_come_back_is_not_encoded():
    with pytest.raises(face_codec.Unencodable):
        face_codec.encode([p.Face(10, 20, 3.0, (p.Rect(float("inf"), 2, 3, 4),))])
    with pytest.raises(face_codec.Unencodable):
        face_codec.encode([p.Face(10, 20, 3.0, (p.Rect([1], 2, 3, 4),))])


def test_the_code_key_covers_only_the_modules_drawing_reaches(monkeypatch):
    """An edit to a module drawing imports (directly or not) or to the engine it loads by
    name draws the faces again; an edit to one it never reaches (the PDF writer, an exporter,
    a front end, another engine) keeps them. Keyed as the rules results are (core/cache.py)."""
    sources = dict(cache.package_sources())
    code = (drawing.__name__, "generator.rules.moving_target")

    def key_after(edited: str | None) -> str:
        changed = dict(sources)
        if edited is not None:
            changed[edited] = sources[edited] + b"\n# an edit\n"
        with monkeypatch.context() as patched:
            patched.setattr(cache, "package_sources", lambda: changed)
            memo.forget_all(code=True)
            try:
                return face_cache.code_digest(code)
            finally:
                memo.forget_all(code=True)

    before = key_after(None)
    for reached in ("generator.faces.template", "generator.expressions.library",
                    "generator.data.typefaces.fonts", "generator.orchestration.drawing",
                    "generator.rules.moving_target.worked"):
        assert key_after(reached) != before, reached
    for apart in ("generator.render.pdf", "generator.orchestration.exporters.tts",
                  "generator.orchestration.output", "generator.frontends.cli",
                  "generator.layout.manifest", "generator.rules.movement_game.engine"):
        assert key_after(apart) == before, apart
