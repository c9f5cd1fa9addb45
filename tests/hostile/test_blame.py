"""Every error blames the file that is wrong (issue 24, deliver 6 and the lows of 7).

- A data value a built-in face template reads is typed (the template's ``fields:``,
  generator/data/tables/fields.py): a bad rules section, pip, die or name is reported at the data
  file's line, never at the template's. A seeded fuzz of the five games' data files checks
  that no mutation ends in a message naming a built-in template, nor in a traceback.
- A translation that cannot be drawn names its catalogue file and line.
- A user theme's bad ``ink_saver`` value names the user's theme file, not the built-in theme
  it extends.
- Control characters and bidirectional overrides are refused in every text of a data file,
  naming the field.

Each reproduction of the issue is a case here with its expected error, and runs once more in
a child process under a 500 MB address-space limit (``test_reproductions_fit_in_500_mb``).
"""
from __future__ import annotations

import functools
import pickle
import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.core import context, paths
from generator.core.errors import reported
from generator.core.model import Size
from generator.core.sizes import PAGE
from generator.data import load_game
from generator.data.design.templates import load_template
from generator.data.tables.fields import declared
from generator.data.translation import i18n
from generator.frontends import cli
from generator.orchestration import composition, drawing
from generator.orchestration.options import BuildOptions
from tests.hostile.limits import pnp_limited_each

GAMES = ["moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game"]
# The files the loader reads for each game (its data file and its ``include:`` list): the
# fuzz mutates these. Beside them, the files a rules engine reads for itself, each with a
# declared shape (generator/rules/movement_game/files.py): the fuzz mutates them too, with
# ENGINE_MUTATIONS of their own.
INCLUDED = {"monster-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day-boxes": ["moving-day-boxes-tables.yaml",
                                 "moving-day-boxes-reference.yaml",
                                 "moving-day-boxes-example.yaml"]}
ENGINE_FILES = {"movement-game": ["movement-examples.yaml", "movement-reference.yaml"]}
BUILTIN_FILE = re.compile(re.escape(str(paths.TEMPLATES)) + r"/\S+\.yaml")


# -- the fuzz ------------------------------------------------------------------------------
MUTATIONS = 300
ENGINE_MUTATIONS = 48  # of ENGINE_FILES, indexed after the MUTATIONS
SEED = 24
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML was built with it
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
ODD = ["many", "", "xxx", -5, 3.7, 0, -0.5, 1e9, True, None, [], {}, [1, 2], {"a": 1},
       "\u202e", "a\x00b"]


def copy_game(game: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in [f"{game}.yaml", *INCLUDED.get(game, []), *ENGINE_FILES.get(game, [])]:
        shutil.copy(paths.CARD_DATA / name, folder / name)
    return folder / f"{game}.yaml"


def _nodes(tree: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, tree
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _nodes(value, path + (key,))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from _nodes(value, path + (index,))


def mutate(tree: Any, rng: random.Random) -> str:
    """One change to a parsed data file: a value of another type (or a hostile string), a
    key or list item deleted, a list made a mapping or the other way round."""
    path, node = rng.choice([(p, n) for p, n in _nodes(tree) if p])
    parent = tree
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    how = rng.choice(["retype", "retype", "retype", "delete", "swap"])
    if how == "delete":
        del parent[key]
        return f"delete {path}"
    if how == "swap" and isinstance(node, (list, dict)):
        parent[key] = dict(enumerate(node)) if isinstance(node, list) else list(node.values())
        return f"swap {path}"
    parent[key] = rng.choice(ODD)
    return f"set {path} = {parent[key]!r}"


@dataclass(frozen=True)
class Mutation:
    index: int
    game: str
    file: str  # the mutated file's name
    text: str  # its text after the change
    what: str


@functools.cache
def parsed(file: str) -> bytes:
    """A data file's tree, pickled (a fresh copy for each mutation, quicker than a deep
    copy), parsed once per process."""
    text = (paths.CARD_DATA / file).read_text(encoding="utf-8")
    return pickle.dumps(yaml.load(text, Loader=LOADER))


def mutations(chunk: int = 0, chunks: int = 1) -> list[Mutation]:
    """The seeded mutations whose index falls in ``chunk``: each with its own generator
    (seeded by SEED and its index), so a chunk makes only its own."""
    made = []
    engine_games = sorted(ENGINE_FILES)
    for index in range(chunk, MUTATIONS + ENGINE_MUTATIONS, chunks):
        if index < MUTATIONS:
            rng = random.Random(f"{SEED}-{index}")
            game = GAMES[index % len(GAMES)]
            file = rng.choice([f"{game}.yaml", *INCLUDED.get(game, [])])
        else:
            rng = random.Random(f"{SEED}-engine-{index}")
            game = engine_games[index % len(engine_games)]
            file = rng.choice(ENGINE_FILES[game])
        tree = pickle.loads(parsed(file))
        what = mutate(tree, rng)
        text = yaml.dump(tree, Dumper=DUMPER, sort_keys=False, allow_unicode=True)
        made.append(Mutation(index, game, file, text, what))
    return made


def drawn_from(game: Any, comp: Any, theme: Any) -> str:
    """Everything a component's face templates are given (generator/orchestration/build.py,
    ``_draw_faces``), written out: two components with the same draw the same faces."""
    examples = drawing.engine_examples(game) if comp.kind in ("rules", "aid") else None
    return repr((theme.context(), game.id, game.title, game.credit, comp.id, comp.kind,
                 comp.name, comp.face, comp.back, comp.shape, comp.size, comp.params,
                 comp.label, [(item.data, item.count) for item in comp.items],
                 game.data["settings"], game.data["tables"], examples))


PRISTINE: dict[str, dict[str, str]] = {}  # game -> component id -> drawn_from, unmutated


def pristine(game_id: str, folder: Path) -> dict[str, str]:
    """``drawn_from`` of every component of the unmutated game (whose kit every kit test
    builds), loaded from a copy as the mutations are."""
    if game_id not in PRISTINE:
        opts = BuildOptions(out_dir=folder / "out")
        with context.building():
            game = load_game(str(copy_game(game_id, folder)))
            theme = drawing.game_theme(game, opts)
            with i18n.session(game):
                PRISTINE[game_id] = {c.id: drawn_from(game, c, theme) for c in game.components}
    return PRISTINE[game_id]


def outcome(data: Path, unchanged: dict[str, str] | None = None) -> tuple[str, int] | None:
    """What the command line would print and exit with for a build of ``data``, up to the
    faces (loading, the checks of the set, every face drawn: where a value of the data
    meets a template), in this process; None when it builds. Anything but an expected
    failure (a bug) raises, with its traceback. A component given exactly what it is given
    in ``unchanged`` (the unmutated game's, which builds) is not drawn again: the fuzz
    spends its time on the components a mutation reaches."""
    opts = BuildOptions(out_dir=data.parent / "out")
    try:
        with context.building():
            game = load_game(str(data))
            composition.check_composition(game, force=False)
            theme = drawing.game_theme(game, opts)
            with i18n.session(game):
                for comp in game.components:
                    if unchanged and unchanged.get(comp.id) == drawn_from(game, comp, theme):
                        continue
                    drawing.render_faces(game, comp, theme, opts)
    except Exception as exc:
        found = reported(exc)
        if found is None:
            raise
        return found
    return None


CHUNKS = 6


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_mutated_data_never_blames_a_builtin_template(chunk, tmp_path):
    """300 seeded mutations of the five games' data files (types changed, keys deleted, lists
    and mappings swapped, hostile strings): each builds, or fails with exit 2 naming a file
    of the game's own folder; none names a built-in template (every value a template reads
    is typed where it is written), none is a traceback. And 48 of the files an engine reads
    for itself: each builds, or fails naming the mutated file and its line, or (a reference
    that still has its shape) fails verify, the kit disagreeing with it."""
    bad = []
    for m in mutations(chunk, CHUNKS):
        folder = tmp_path / f"m{m.index}"
        data = copy_game(m.game, folder)
        (folder / m.file).write_text(m.text, encoding="utf-8")
        found = outcome(data, pristine(m.game, tmp_path / "pristine" / m.game))
        if found is None:
            continue
        text, code = found
        first = text.splitlines()[0]
        engine_file = m.index >= MUTATIONS
        blamed = first.startswith(f"{folder / m.file}:") or (
            m.file.endswith("-reference.yaml") and "the set is incomplete or wrong" in first)
        if code != 2 or BUILTIN_FILE.search(text) or not first.startswith(str(folder)) or (
                engine_file and not blamed):
            bad.append(f"{m.game} {m.file}: {m.what}: exit {code}: {text[:300]}")
    assert not bad, "\n".join(bad)


@pytest.mark.slow
@pytest.mark.parametrize("edit", [
    ("            col: 1\n", ""),  # a section's col left out: column 1
    ("            col: 1\n", "            col: null\n"),
    ("            col: 2\n            h: 185\n", "            col: 2\n            h: null\n"),
], ids=["col-left-out", "col-null", "h-null"])
def test_optional_rules_page_fields_left_out_or_null_build(edit, tmp_path):
    """A rules page's optional fields (col, h: "?" in rules-page.yaml's fields) may
    be left out or null, as their declaration says: the page builds instead of failing in
    the built-in template (what the fuzz found when its mutations shifted)."""
    data = copy_game("moving-target", tmp_path)
    text = data.read_text(encoding="utf-8")
    assert edit[0] in text
    data.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    assert outcome(data) is None


# -- what the templates declare ------------------------------------------------------------
READS = re.compile(r"\b(item|params|tables|settings)(?:\.get\('([a-z_]+)'"
                   r"|\.([a-z_][a-z0-9_]*)|\[)")
SECTION = re.compile(r"\bs\.(?:get\('([a-z_]+)'|([a-z_][a-z0-9_]*))")
BUILTIN_FACES = sorted(paths.FACES.glob("*.yaml"))


def _record_fields(template: str, root: str) -> set[str]:
    kind = declared(load_template(template)).records.get(root)
    return {name for name, _ in kind.fields} if kind is not None else set()


@pytest.mark.parametrize("file", BUILTIN_FACES, ids=[f.stem for f in BUILTIN_FACES])
def test_every_field_a_builtin_template_reads_is_declared(file):
    """``item.x``, ``item.get('x')``, ``params.x``, ``tables.x`` and ``settings.x`` in a
    built-in template are declared in its ``fields:``; a rules section's fields (``s.x`` in
    rules-section and in the diagrams it draws) in rules-page's ``section`` or in the
    diagram's ``named_by``; a template drawing an engine's ``examples`` names the engine."""
    text = "\n".join(line for line in file.read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().startswith("#"))
    roots = declared(load_template(file.stem)).roots
    for match in READS.finditer(text):
        root, name = match.group(1), match.group(2) or match.group(3)
        assert root in roots, f"{file.stem} reads {root} without declaring it"
        if name and roots[root].base == "record":
            assert name in _record_fields(file.stem, root), f"{file.stem}: {root}.{name}"
    if file.stem == "rules-section" or "named_by" in roots:
        section = _record_fields("rules-page", "section") | _record_fields(file.stem,
                                                                           "named_by")
        for match in SECTION.finditer(text):
            assert (match.group(1) or match.group(2)) in section, (file.stem, match.group())
    if "examples." in text and file.stem != "rules-page":
        assert "rules" in roots, f"{file.stem} draws an engine's examples: name it"


@pytest.mark.slow
def test_builtin_templates_draw_at_the_smallest_size_they_declare():
    """A template's declared ``size`` is the smallest it draws: each component of the five
    games, drawn at that size (the larger of its face's and back's), draws."""
    opts = BuildOptions()
    for game_id in GAMES:
        with context.building():
            game = load_game(game_id)
            theme = drawing.game_theme(game, opts)
            with i18n.session(game):
                for comp in game.components:
                    if comp.size == PAGE:
                        continue
                    least = [_least(name) for name in (comp.face, comp.back) if name]
                    size = Size(max(w for w, _ in least), max(h for _, h in least))
                    drawing._draw_faces(game, _resized(comp, size), theme, opts, size)


def _least(template: str) -> tuple[float, float]:
    kind = declared(load_template(template)).roots["size"]
    low = {name: field.low for name, field in kind.fields}
    assert low["w"] is not None and low["h"] is not None
    return low["w"], low["h"]


def _resized(comp: Any, size: Size) -> Any:
    from dataclasses import replace
    return replace(comp, size=size)


# -- the reproductions ---------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """A hostile edit of a copy of ``game`` and what its build must say: exit 2, one line
    naming ``blame`` (a file of the copy's folder) at the line holding ``marker`` (the
    first line after the edit containing it), with ``field`` and ``says`` in the message."""

    name: str
    game: str
    edit: Callable[[Path], Path]  # edits the copy; returns the file to blame
    marker: str
    field: str
    says: str
    args: tuple[str, ...] = ()


def replace_in(name: str, old: str, new: str) -> Callable[[Path], Path]:
    def edit(folder: Path) -> Path:
        file = folder / name
        text = file.read_text(encoding="utf-8")
        assert old in text, old
        file.write_text(text.replace(old, new, 1), encoding="utf-8")
        return file
    return edit


MT = "moving-target.yaml"
SECTION_LINE = ("          - heading: Never more than 12 cards\n            col: 1\n"
                "            h: 42\n")
CASES = [
    # Rules-page sections: each field the template reads, typed.
    Case("section h not a number", "moving-target", replace_in(MT, "h: 42\n", "h: many\n"),
         "h: many", "sections[3].h", "expected a number from 10 to 280"),
    Case("section size negative", "moving-target",
         replace_in(MT, SECTION_LINE, SECTION_LINE + "            size: -5\n"), "size: -5",
         "sections[3].size", "expected a number from 7 to 16"),
    Case("section diagram a number", "moving-target",
         replace_in(MT, "diagram: moving-target-example", "diagram: 3.7"), "diagram: 3.7",
         "sections[5].diagram", "expected the name of a face template"),
    Case("section diagram unknown", "moving-target",
         replace_in(MT, "diagram: moving-target-example", "diagram: no-such-diagram"),
         "diagram: no-such-diagram", "sections[5].diagram", "no face template"),
    Case("section diagram_h negative", "moving-target",
         replace_in(MT, "diagram_h: 176", "diagram_h: -5"), "diagram_h: -5",
         "sections[5].diagram_h", "from 5 to 270"),
    Case("section diagram_h too small for its diagram", "moving-target",
         replace_in(MT, "diagram_h: 176", "diagram_h: 20"), "diagram_h: 20",
         "sections[5].diagram_h", "moving-target-example reads it"),
    Case("section heading missing", "moving-target",
         replace_in(MT, "          - heading: Never more than 12 cards\n            col: 1\n",
                    "          - col: 1\n"), "- col: 1\n            h: 42",
         "sections[3].heading", "missing"),
    Case("section heading empty", "moving-target",
         replace_in(MT, "heading: Never more than 12 cards", "heading: ''"), "heading: ''",
         "sections[3].heading", "text of 1 to 120 characters"),
    # Pips, dice, names and navigation words.
    Case("pip at -5", "moving-target",
         replace_in(MT, 'pips: [[0.5, 0], [0.5, 1]]}', 'pips: [[0.5, 0], [-5, 1]]}'),
         "[-5, 1]", "tables.ranks[1].pips[1]", "from 0 to 1"),
    Case("pip at 3.7", "moving-target",
         replace_in(MT, 'pips: [[0.5, 0], [0.5, 1]]}', 'pips: [[0.5, 0], [0.5, 3.7]]}'),
         "[0.5, 3.7]", "tables.ranks[1].pips[1]", "from 0 to 1"),
    Case("empty rank name", "moving-target", replace_in(MT, "name: Two,", "name: '',"),
         "name: '',", "tables.ranks[1].name", "text of 1 to 12 characters"),
    Case("dice faces many and -5", "monster-day",
         replace_in("monster-day.yaml", "{dice: [6, 6]}", "{dice: ['many', -5]}"),
         "{dice: ['many', -5]}", "components[5].items[0].dice[0]", "one of 3, 4, 6"),
    Case("empty navigation word", "movement-game",
         replace_in("movement-game.yaml", "word: LEFT,", "word: '',"), "word: '',",
         "tables.navigation[0].word", "text of 1 to 20 characters"),
    Case("a suit that is not a suit", "monster-day",
         replace_in("decktet.yaml", "suits: [moons, knots]", "suits: [moons, many]"),
         "suits: [moons, many]", "tables.decktet_cards[6].suits[1]",
         "an id of table decktet_suits"),
    Case("a diagram without its engine", "monster-day",
         replace_in("monster-day.yaml", "rules: decktet_moving_day\n", ""), "id: monster-day",
         "rules", "one of decktet_moving_day"),
    # Control characters and bidirectional overrides, written as YAML escapes.
    Case("title with a right-to-left override", "moving-target",
         replace_in(MT, "title: Moving Target", 'title: "Moving \\u202eTarget"'),
         "title:", "title", "a bidirectional override (U+202E)"),
    Case("title with a NUL", "moving-target",
         replace_in(MT, "title: Moving Target", 'title: "Moving \\0Target"'), "title:",
         "title", "a NUL (U+0000)"),
    Case("component name with an escape", "moving-target",
         replace_in(MT, "name: Playing cards", 'name: "Playing \\e[31mcards"'),
         "name: \"Playing", "components[0].name", "a control character (U+001B)"),
    Case("label with an isolate", "moving-target",
         replace_in(MT, 'label: "{{ item.rank', 'label: "\\u2067{{ item.rank'),
         "label:", "components[0].label", "bidirectional override (U+2067)"),
    Case("rules text with a NUL", "moving-target",
         replace_in(MT, "heading: Strategy", 'heading: "Strat\\0egy"'), "Strat",
         "sections[6].heading", "a NUL"),
]


def rows_of(board: str, new: str) -> Callable[[Path], Path]:
    """Movement Game's ``board`` with its ``rows:`` list replaced by ``new``."""
    def edit(folder: Path) -> Path:
        file = folder / "movement-game.yaml"
        text = file.read_text(encoding="utf-8")
        found = re.search(rf"(- name: {board}\n\s+symmetry: \w+\n\s+)rows:\n(\s+- .*\n)+",
                          text)
        assert found, board
        file.write_text(text[:found.start()] + found.group(1) + new + text[found.end():],
                        encoding="utf-8")
        return file
    return edit


WIDE = "W" * 57  # within the column's 60 characters, too wide for the conversion card's line
ONE_LINE = len(CASES)  # the cases from here on end in exactly one line
CASES += [
    # Issue 35: the vague and the silent, each named at its data line.
    Case("diameter 1e308: one line, not one per size form", "monster-day",
         replace_in("monster-day.yaml", "size: {diameter: 28}", "size: {diameter: 1e308}"),
         "diameter: 1e308", "size.diameter", "less than or equal to 500"),
    Case("movement board without rows", "movement-game", rows_of("Lattice", "rows: []\n"),
         "rows: []", "tables.boards[0].rows", "at least 1"),
    Case("conversion card text too wide", "movement-game",
         replace_in("movement-game.yaml", 'cards: "Jacks"', f'cards: "{WIDE}"'), WIDE,
         "tables.standard_deck_conversion[5].cards",
         "does not fit a 43.5 x 3.74375 mm box even at the minimum size 6 pt"),
    Case("conversion card naming an unknown inline icon", "movement-game",
         replace_in("movement-game.yaml", 'cards: "Jacks"', 'cards: "Jacks :nosuch:"'),
         ":nosuch:", "tables.standard_deck_conversion[5].cards",
         "printed by the built-in face template conversion-card"),
    Case("rules section field misspelt", "moving-target",
         replace_in(MT, SECTION_LINE, SECTION_LINE.replace("h: 42", "hieght: 42")),
         "hieght: 42", "sections[3].hieght", "unknown field (check its spelling): expected "
         "one of heading, text, col, h,"),
    Case("a rules page's own aid section misspelt", "moving-target",
         replace_in(MT, "            h: 16\n", "            h: 16\n            colour: red\n"),
         "colour: red", "sections[0].colour", "unknown field"),
    Case("card grid param misspelt", "moving-target",
         replace_in(MT, "params: {rows: 5, cols: 5, cell: poker, gap: 3, border: 8}",
                    "params: {rows: 5, cols: 5, cell: poker, gap: 3, border: 8, gutter: 4}"),
         "gutter: 4",
         "params.gutter", "expected one of rows, cols, gap, border, cell"),
    Case("vehicle param misspelt", "moving-day-boxes",
         replace_in("moving-day-boxes.yaml", "params: {vehicle: car}",
                    "params: {vehicle: car, slots_mm: 18}"), "slots_mm: 18",
         "params.slots_mm", "unknown field"),
    Case("seat empty", "moving-day",
         replace_in("moving-day.yaml", "items: [{seat: A}, {seat: B}]",
                    "items: [{seat: A}, {seat: ''}]"), "{seat: ''}", "items[1].seat",
         "expected one of A, B, got ''"),
    Case("seat 3.7", "monster-day",
         replace_in("monster-day.yaml", "items: [{seat: A}, {seat: B}]",
                    "items: [{seat: 3.7}, {seat: B}]"), "{seat: 3.7}", "items[0].seat",
         "expected one of A, B, got 3.7"),
    Case("seat '12345'", "moving-day-boxes",
         replace_in("moving-day-boxes.yaml", "{seat: 2}", "{seat: '12345'}"), "'12345'",
         "items[1].seat", "expected a whole number from 1 to 4, got '12345'"),
    Case("pip 0", "moving-target",
         replace_in(MT, 'pips: [[0.5, 0], [0.5, 1]]}', 'pips: [0, [0.5, 1]]}'),
         "[0, [0.5, 1]]", "tables.ranks[1].pips[0]", "an [x, y] pair"),
    Case("label empty", "moving-target",
         replace_in(MT, 'label: "{{ item.rank.name }} of {{ item.suit.name }}"', "label: ''"),
         "label: ''", "components[0].label", "at least 1 character"),
    Case("label empty for one item", "moving-target",
         replace_in(MT, 'label: "{{ item.rank.name }} of {{ item.suit.name }}"',
                    "label: \"{{ '' if item.rank.id == '3' else item.rank.name }}\""),
         "label:", "components[0].label",
         "expected a label of at least 1 character; item 3 gets an empty one"),
    Case("colour group naming no colour of the palette", "moving-target",
         replace_in(MT, "palette.suit_clubs }}", "palette.suit_clubz }}"), "suit_clubz",
         "preflight.colour_groups[0].colours.Clubs", "has no attribute 'suit_clubz'"),
]


def _setup(case: Case, folder: Path) -> tuple[Path, Path, int]:
    """The copy, edited: (data file, file to blame, line of the marker)."""
    data = copy_game(case.game, folder)
    before = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.yaml")}
    blame = case.edit(folder)
    text = blame.read_text(encoding="utf-8")
    start = next(i for i, (a, b) in enumerate(zip(before[blame.name], text, strict=False))
                 if a != b)
    at = text.find(case.marker, text.rfind("\n", 0, start) + 1)
    at = at if at >= 0 else text.index(case.marker)  # a field deleted: an earlier line
    return data, blame, text.count("\n", 0, at) + 1


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_value_is_blamed_at_its_line(case, tmp_path, capsys):
    data, blame, line = _setup(case, tmp_path / "game")
    code = cli.main(["build", str(data), "--out", str(tmp_path / "out"), *case.args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err, err
    assert all(more.startswith(f"{blame}:") for more in err.splitlines()[1:]), err
    assert re.match(rf"error: {re.escape(str(blame))}:{line}: (\S+\.)?{re.escape(case.field)}: ",
                    err), err
    assert case.says in err, err
    assert not BUILTIN_FILE.search(err)
    if CASES.index(case) >= ONE_LINE:
        assert len(err.splitlines()) == 1, err


def test_monster_day_without_its_dice_setting_builds(tmp_path):
    """``settings.dice`` is optional (the aid's ``fields:`` say ``one of d4|d6?``, the engine
    plays d6 without it): left out, the kit builds instead of failing in the built-in aid."""
    data = copy_game("monster-day", tmp_path)
    text = data.read_text(encoding="utf-8")
    assert "\n  dice: d6 " in text
    data.write_text(re.sub(r"\n  dice: d6 .*", "", text, count=1), encoding="utf-8")
    assert "dice:" not in yaml.safe_load(data.read_text(encoding="utf-8"))["settings"]
    assert outcome(data) is None


# -- translations and themes ---------------------------------------------------------------

def _french_project(folder: Path, strings: str) -> Path:
    data = copy_game("moving-target", folder)
    (folder / "messages").mkdir()
    (folder / "messages" / "fr.yaml").write_text("strings:\n" + strings, encoding="utf-8")
    return data


LONG = "Il ne doit jamais y avoir plus de douze cartes sur la grille. " * 60
RULE = ("There must never be more than 12 cards on the grid. When you place the 13th card, "
        "remove any card of your choice from the grid to the discard pile. You must place a "
        "card before removing one, and you cannot remove the card you just placed. Tip: "
        "announce when there are 12 cards on the grid, so everyone knows they must now remove "
        "a card on their turn. Tip: if your opponent takes their turn before you have removed "
        "a card, they must take back their card, and you can counter by taking away their move.")
TRANSLATIONS = [
    # A translated rules text (t() of a data value) too long for its box.
    ("rules text too long", f"  \"Winning, or a draw\": Gagner\n  \"{RULE}\": \"{LONG}\"\n", 3,
     "does not fit", "rules-section"),
    # A template's own text replaced by a translation whose expression fails (Moving
    # Target's label is the same text, and a piece is named before its face is drawn).
    ("template text expression fails",
     "  \"{{ item.rank.name }} of {{ item.suit.name }}\": \"{{ item.rang.nom }}\"\n", 2,
     "has no attribute 'rang'", "label components[0].label"),
    # ... and by one naming an inline icon there is none of.
    ("template text unknown inline icon",
     "  \"{{ item.rank.name }} of {{ item.suit.name }}\": \"{{ item.rank.name }} :nosuch:\"\n",
     2, "inline icon :nosuch:", "playing-card"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "strings", "line", "says", "template"), TRANSLATIONS,
                         ids=[t[0] for t in TRANSLATIONS])
def test_a_failing_translation_names_its_catalogue_line(name, strings, line, says, template,
                                                        tmp_path, capsys):
    data = _french_project(tmp_path / "game", strings)
    code = cli.main(["build", str(data), "--lang", "fr", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    catalogue = tmp_path / "game" / "messages" / "fr.yaml"
    assert err.startswith(f"error: {catalogue}:{line}: strings: "), err
    assert says in err and ((template.startswith("label ") and f"as the {template}" in err)
                            or f"face template {template}" in err), err
    assert not BUILTIN_FILE.search(err)


def _user_theme(folder: Path, ink_saver: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    theme = folder / "mine.yaml"
    theme.write_text("name: mine\nextends: standard\npalette:\n  back_bg: \"#203040\"\n"
                     f"ink_saver:\n{ink_saver}", encoding="utf-8")
    return theme


@pytest.mark.parametrize("ink", [(), ("--ink-saver",)], ids=["normal", "ink-saver"])
@pytest.mark.parametrize(("ink_saver", "field"), [
    ("  palette:\n    back_pattern: nope\n", "ink_saver.palette.back_pattern"),
    ("  palette:\n    back_bg: nope\n", "ink_saver.palette.back_bg"),
    ("  palette: 7\n", "ink_saver.palette"),
    ("  fonts:\n    title: comic-sans\n", "ink_saver.fonts.title"),
], ids=["overrides a built-in colour", "overrides its own colour", "not a mapping",
        "unknown font"])
def test_a_bad_ink_saver_value_names_the_user_theme(ink_saver, field, ink, tmp_path, capsys):
    """Checked as written, with or without --ink-saver: before, merged first, the value was
    blamed at the line it overrides, in templates/themes/standard.yaml."""
    theme = _user_theme(tmp_path / "theme", ink_saver)
    line = theme.read_text(encoding="utf-8").splitlines().index("ink_saver:") + 2
    code = cli.main(["build", "moving-target", "--theme", str(theme), "--out",
                     str(tmp_path / "out"), *ink])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"error: {theme}:"), err
    assert f": {field}: " in err and not BUILTIN_FILE.search(err), err
    assert int(err.split(":")[2]) >= line - 1


# -- memory: every reproduction in a child process under RLIMIT_AS ---------------------------
REPRODUCTIONS = [case.name for case in CASES] + ["ink_saver", "french"]


@pytest.mark.slow
def test_reproductions_fit_in_500_mb(tmp_path):
    """Every reproduction above, built by the command line in a child limited to 500 MB of
    address space (all in one child, one after another: tests/hostile/limits.py): each
    still fails with its line (one per problem), exit 2; a MemoryError would be a
    traceback or exit 1."""
    runs = []
    for index, name in enumerate(REPRODUCTIONS):
        folder = tmp_path / f"r{index}"
        out = str(folder / "out")
        if name == "ink_saver":
            theme = _user_theme(folder / "theme", "  palette:\n    back_pattern: nope\n")
            args = ["build", "moving-target", "--theme", str(theme), "--ink-saver", "--out", out]
        elif name == "french":
            data = _french_project(folder / "game", TRANSLATIONS[0][1])
            args = ["build", str(data), "--lang", "fr", "--out", out]
        else:
            case = next(c for c in CASES if c.name == name)
            data, _, _ = _setup(case, folder / "game")
            args = ["build", str(data), "--out", out, *case.args]
        runs.append((name, folder, args))
    done = pnp_limited_each([r[2] for r in runs], env={"PNP_CACHE": "1"})  # the run's cache
    for (name, folder, _), result in zip(runs, done, strict=True):
        lines = result.stderr.splitlines()
        assert result.returncode == 2, (name, result.stderr[-2000:])
        assert "Traceback" not in result.stderr and lines[0].startswith(f"error: {folder}"), \
            (name, lines)
        assert all(line.startswith(f"{folder}") for line in lines[1:]), (name, lines)
        assert not BUILTIN_FILE.search(result.stderr), name


# -- a project's own templates -------------------------------------------------------------

def _starter(folder: Path) -> Path:
    assert cli.main(["init", str(folder)]) == 0
    return folder


def test_a_project_template_declaring_fields_is_checked_at_the_data(tmp_path, capsys):
    """The starter joins each card to its suit (``suit: {table: suits}``): a suit that is no
    suit's id is reported at its row of game.yaml (before, the template's index() failed at
    its own line)."""
    project = _starter(tmp_path / "game")
    game = project / "game.yaml"
    text = game.read_text(encoding="utf-8")
    old = "{name: Noon, suit: sun, value: 3}"
    game.write_text(text.replace(old, "{name: Noon, suit: son, value: 3}"), encoding="utf-8")
    line = text[: text.index(old)].count("\n") + 1
    capsys.readouterr()
    assert cli.main(["build", str(project), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {game}:{line}: tables.cards[2].suit: expected an id of table "
                   "suits (leaf, moon, sun), got 'son'\n"), err


def test_a_bad_fields_declaration_names_the_template(tmp_path, capsys):
    project = _starter(tmp_path / "game")
    token = project / "faces" / "token.yaml"
    token.write_text(token.read_text(encoding="utf-8").replace(
        "  item: {value: int}", "  item: {value: int 5..1}"), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["build", str(project), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {token}:3: fields.item.value: empty range 5..1"), err
