"""The bad-input corpus: hostile and careless edits of every game's data file and of a theme,
each built through the CLI. Every case must exit 2 with one ``error:`` line naming the right file
(and field, where there is one), no traceback, and leave the previous kit byte-identical.

Cases are generated: the same breakages applied to each of the five games (syntax, types,
absurd numbers, hostile strings, template payloads including the ``str.format`` walk, path
traversal, resource bombs), plus theme breakages. The count is asserted (at least 150).
"""
from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.core import paths
from generator.frontends import cli

GAMES = ["moving-target", "monster-day", "moving-day", "moving-day-boxes", "movement-game"]
INCLUDES = {"monster-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day-boxes": ["moving-day-boxes-tables.yaml", "moving-day-boxes-reference.yaml",
                                 "moving-day-boxes-example.yaml"],
            # Read beside the data file by the rules module (examples and reference).
            "movement-game": ["movement-examples.yaml", "movement-reference.yaml"]}
FORMAT_WALK = "{{ str.format('{0.__init__.__globals__[os].environ[SECRET]}', cycler) }}"


@dataclass(frozen=True)
class Case:
    name: str
    mutate: Callable[[str], str | bytes]
    field: str  # a piece of the field path the message must name ("" when there is none)


def sub(pattern: str, repl: str, count: int = 1) -> Callable[[str], str]:
    """Replace ``pattern`` (``\\1`` in ``repl`` is its first group; nothing else is escaped)."""
    def apply(text: str) -> str:
        def fill(match: re.Match[str]) -> str:
            return repl.replace("\\1", match.group(1) if match.groups() else "")
        new, n = re.subn(pattern, fill, text, count=count, flags=re.M)
        assert n, f"pattern {pattern!r} not found"
        return new
    return apply


def first_component(repl: str) -> Callable[[str], str]:
    """Put ``repl`` lines into the first component, right after its id."""
    return sub(r"^(  - id: [a-z0-9-]+\n)", "\\1" + repl)


def prepend(block: str) -> Callable[[str], str]:
    return lambda text: block + text


CASES = [
    Case("nul byte", lambda t: t.replace("\ntitle:", "\n\x00title:", 1), ""),
    Case("binary junk", lambda t: t.encode("utf-8") + b"\n\xff\xfe\x00\x81junk: [\n", ""),
    Case("bad utf-8", lambda t: t.replace("title:", "title: \udcff", 1).encode(
        "utf-8", "surrogateescape"), ""),
    Case("tab indentation", sub(r"^settings:\n  ", "settings:\n\t"), ""),
    Case("truncated", lambda t: t[: len(t) // 2] + "\n  - {unclosed: [", ""),
    Case("unknown top-level key", prepend("titel: typo\n"), "titel"),
    Case("huge title", sub(r"^title: .*$", "title: " + "x" * 100_000), "title"),
    Case("id traversal", sub(r"^id: .*$", "id: ../../etc/x"), "id"),
    Case("players absurd", sub(r"^players: .*$", "players: [0, 99]"), "players"),
    Case("players not numbers", sub(r"^players: .*$", "players: many"), "players"),
    Case("theme traversal", sub(r"^theme: .*$", "theme: ../../../etc/passwd"), "theme"),
    Case("theme unknown", sub(r"^theme: .*$", "theme: no-such-theme"), "theme"),
    Case("rules module unknown", sub(r"^rules: .*$", "rules: os"), "rules"),
    Case("rules module traversal", sub(r"^rules: .*$", "rules: ../../x"), "rules"),
    Case("no components", sub(r"^components:\n", "components: []\nunused:\n"), "components"),
    Case("component kind", first_component("    kind: spaceship\n"), "kind"),
    Case("component size word", sub(r"^(  - id: [a-z0-9-]+\n(?:    .*\n)*?)    size: .*\n",
                                    "\\1    size: enormous\n"), "size"),
    Case("component face traversal", sub(r"^    face: .*$", "    face: ../../../etc/passwd"),
         "face"),
    Case("component face missing", sub(r"^    face: .*$", "    face: no-such-face"), "face"),
    Case("label format walk", sub(r"^    face: (rules-page)$", "    face: \\1\n    label: \"" +
                                  FORMAT_WALK + "\""), "label"),
    Case("label string bomb", sub(r"^    face: (.*)$",
                                  "    face: \\1\n    label: \"{{ 'x' * 10**9 }}\""), "label"),
    Case("label center bomb", sub(r"^    face: (.*)$",
                                  "    face: \\1\n    label: \"{{ 'x'|center(2000000000) }}\""),
         "label"),
    Case("label percent bomb", sub(r"^    face: (.*)$",
                                   "    face: \\1\n    label: \"{{ '%0999999999d' % 1 }}\""),
         "label"),
    Case("label lipsum", sub(r"^    face: (rules-page)$",
                             "    face: \\1\n    label: \"{{ lipsum() }}\""), "label"),
    Case("include passwd", sub(r"^settings:", "include: [/etc/passwd]\nsettings:"), "include"),
    Case("include dev zero", sub(r"^settings:", "include: [/dev/zero]\nsettings:"), "include"),
    Case("include escape", sub(r"^settings:", "include: [../../README.md]\nsettings:"),
         "include"),
    Case("billion laughs", prepend(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e]\n"),
         ""),
    Case("deep nesting", sub(r"^settings:\n", "settings:\n  deep: " + "[" * 200 + "]" * 200
                             + "\n"), ""),
    Case("python tag", sub(r"^settings:\n", "settings:\n  evil: !!python/object/apply:os.system"
                           " [\"echo pwned\"]\n"), ""),
    Case("five megabytes", lambda t: t + "# " + "x" * (5 * 1024 * 1024) + "\n", ""),
    Case("credit huge", sub(r"^credit: >-\n", "credit: " + "c" * 5000 + "\ncredit_was: >-\n"),
         "credit"),
]


def _copy_game(game: str, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in [f"{game}.yaml", *INCLUDES.get(game, [])]:
        shutil.copy(paths.CARD_DATA / name, folder / name)
    return folder / f"{game}.yaml"


@pytest.fixture(scope="session")
def previous_kits(kits) -> dict[str, Path]:
    """Each game's output folder as a build leaves it (conftest's shared ``kits``: a copy of
    a game's data builds the same bytes): the outputs a bad build must not touch (tests copy
    them)."""
    return {game: kits(game).opts.out_dir for game in GAMES}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _check(argv: list[str], out: Path, before: dict[str, bytes], file: Path, field: str,
           capsys) -> None:
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2, f"exit {code}: {err[-500:]}"
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) >= 1 and err.startswith("error:"), err[-500:]
    assert file.name in err, err[-500:]
    if field:
        assert field in err, err[-500:]
    assert _snapshot(out) == before


ALL = [(game, case) for game in GAMES for case in CASES]


def test_the_corpus_is_big_enough():
    assert len(ALL) + len(THEME_CASES) >= 150


@pytest.mark.parametrize(("game", "case"), ALL, ids=[f"{g}-{c.name}" for g, c in ALL])
def test_bad_data_exits_2_and_loses_nothing(game, case, tmp_path, previous_kits, capsys,
                                            monkeypatch):
    monkeypatch.setenv("SECRET", "hunter2-secret")
    data = _copy_game(game, tmp_path / "data")
    text = data.read_text(encoding="utf-8")
    mutated = case.mutate(text)
    if isinstance(mutated, bytes):
        data.write_bytes(mutated)
    else:
        data.write_text(mutated, encoding="utf-8")
    out = tmp_path / "out"
    shutil.copytree(previous_kits[game], out)
    before = _snapshot(out)
    _check(["build", str(data), "--out", str(out)], out, before, data, case.field, capsys)
    assert "hunter2-secret" not in "".join(p.name for p in out.rglob("*"))


THEME_CASES = [
    Case("theme colour not a colour", sub(r"^  back_bg: .*$", "  back_bg: \"red; drop\""),
         "back_bg"),
    Case("theme ink saver not a mapping", prepend("ink_saver: \"yes\"\n"), "ink_saver"),
    Case("theme font unknown", sub(r"^  title: .*$", "  title: comic-sans"), "title"),
    Case("theme extends traversal", prepend("extends: ../../../etc/passwd\n"), "extends"),
    Case("theme extends itself", prepend("extends: my-theme\n"), "extends"),
    Case("theme nul byte", lambda t: t.replace("palette:", "palette:\x00", 1), ""),
    Case("theme billion laughs", prepend(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n"),
         ""),
    Case("theme palette not a mapping", sub(r"^palette:\n", "palette: 7\nold_palette:\n"),
         "palette"),
    Case("theme truncated", lambda t: t[: len(t) // 2] + "\n  x: [", ""),
]


@pytest.mark.parametrize("case", THEME_CASES, ids=[c.name for c in THEME_CASES])
def test_bad_theme_exits_2_and_loses_nothing(case, tmp_path, previous_kits, capsys,
                                             monkeypatch):
    monkeypatch.setenv("SECRET", "hunter2-secret")
    theme = tmp_path / "my-theme.yaml"
    source = (paths.ROOT / "templates" / "themes" / "standard.yaml").read_text(encoding="utf-8")
    source = re.sub(r"^name: .*$", "name: my-theme", source, flags=re.M)
    mutated = case.mutate(source)
    if isinstance(mutated, bytes):
        theme.write_bytes(mutated)
    else:
        theme.write_text(mutated, encoding="utf-8")
    data = _copy_game("moving-target", tmp_path / "data")
    out = tmp_path / "out"
    shutil.copytree(previous_kits["moving-target"], out)
    before = _snapshot(out)
    _check(["build", str(data), "--theme", str(theme), "--out", str(out)], out, before, theme,
           case.field, capsys)


@pytest.mark.slow
def test_theme_labels_are_text_not_templates(tmp_path, pypdf_text, capsys):
    """A label in a theme is printed as written: an expression in it is never evaluated."""
    theme = tmp_path / "my-theme.yaml"
    theme.write_text("name: my-theme\nlabels:\n  back_title: \"{{ 7 * 7 }}\"\n",
                     encoding="utf-8")
    data = _copy_game("moving-target", tmp_path / "data")
    assert cli.main(["build", str(data), "--theme", str(theme), "--out",
                     str(tmp_path / "out")]) == 0
    text = pypdf_text(tmp_path / "out" / "moving-target" / "moving-target.pdf", 4)
    assert "{{ 7 * 7 }}" in text and "49" not in text
