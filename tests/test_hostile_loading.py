"""Hostile data, themes, face templates, icons and images, loaded through the command line.

Each case mutates copies of the real files in a temporary folder (the game's data file and its
includes; where needed a copy of templates/faces/, templates/icons/ or templates/themes/, put
in place of the real folder) and runs ``build`` and ``verify`` on it. Every case must exit 2
with one ``error:`` line naming the right file and field, print no traceback, write nothing
to the output folder, and finish quickly: the limits of generator/core/yamlfile.py,
generator/data/files/resolve.py and generator/data/tables/loader.py act before anything expensive
runs.
"""
from __future__ import annotations

import os
import shutil
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PIL import Image

from generator.core import paths
from generator.data.design.icons import load_icon
from generator.data.design.templates import load_template
from generator.data.files import resolve
from generator.data.tables.schema import MAX_COMPONENT_PIECES, MAX_GAME_PIECES
from generator.frontends import cli

INCLUDES = {"monster-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day": ["decktet.yaml", "decktet-moving-day.yaml"],
            "moving-day-boxes": ["moving-day-boxes-tables.yaml"]}
BILLION_LAUGHS = ("lol: &a [x, x, x, x, x, x, x, x, x, x]\n"
                  "lol2: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                  "lol3: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                  "lol4: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                  "lol5: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                  "lol6: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n")
SMALL_LAUGHS = ("lol: &a [x, x, x, x, x, x, x, x, x, x]\n"
                "lol2: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                "lol3: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                "lol4: [*c, *c, *c, *c, *c, *c, *c, *c]\n")  # 28 aliases, 8,000 values
MANY_ALIASES = "few: &f [x]\nmany: [" + ", ".join(["*f"] * 150) + "]\n"
TWO = '{id: "2", name: Two, value: 2, pips: [[0.5, 0], [0.5, 1]]}'
SUIT = "{id: S, name: Spades, icon: spade, colour: suit_spades}"
CARD_ELEMENTS = "elements:\n  - rect: {x: \"{{ -bleed }}\""


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@dataclass
class Env:
    """A scratch copy of one game (and of template folders on demand) for one case."""

    root: Path
    monkeypatch: pytest.MonkeyPatch
    game: str = "moving-target"
    data: Path = field(init=False)
    theme_args: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        folder = self.root / "data"
        folder.mkdir()
        for name in [f"{self.game}.yaml", *INCLUDES.get(self.game, [])]:
            shutil.copy(paths.CARD_DATA / name, folder / name)
        self.data = folder / f"{self.game}.yaml"

    @property
    def folder(self) -> Path:
        return self.data.parent

    def copy_of(self, attr: str) -> Path:
        """A copy of templates/<faces|icons|themes>/ used in place of the real one."""
        target = self.root / attr.lower()
        if not target.exists():
            shutil.copytree(getattr(paths, attr), target)
            self.monkeypatch.setattr(paths, attr, target)
        return target

    def replace(self, file: Path, old: str, new: str) -> Path:
        text = file.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur once in {file.name}"
        file.write_text(text.replace(old, new), encoding="utf-8")
        return file

    def edit(self, old: str, new: str) -> Path:
        return self.replace(self.data, old, new)

    def prepend(self, file: Path, text: str) -> Path:
        file.write_text(text + file.read_text(encoding="utf-8"), encoding="utf-8")
        return file

    def card_image(self, path: str) -> Path:
        """Put an image element, drawing ``path``, on every playing card."""
        faces = self.copy_of("FACES")
        return self.replace(faces / "playing-card.yaml", CARD_ELEMENTS,
                            f"elements:\n  - image: {{path: {path!r}, x: 5, y: 5, w: 20, "
                            f"h: 20}}\n  - rect: {{x: \"{{{{ -bleed }}}}\"")

    def outside(self, name: str = "outside.yaml") -> Path:
        """A file outside the game's folder (a secret a hostile file would like to read)."""
        secret = self.root / "secret" / name
        secret.parent.mkdir(exist_ok=True)
        shutil.copy(paths.CARD_DATA / "decktet.yaml", secret)
        return secret


@dataclass(frozen=True)
class Expect:
    file: Path  # the file the error must name
    field: str  # a piece of the field path (or of the message, where there is no field)
    commands: tuple[str, ...] = ("build", "verify")
    message: str = ""  # and a piece of the message, where the field alone says too little


Setup = Callable[[Env], Expect]


@dataclass(frozen=True)
class Case:
    name: str
    setup: Setup
    game: str = "moving-target"


# -- images --------------------------------------------------------------------------------

def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(
        ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def bomb_png(side: int = 100_000) -> bytes:
    """A PNG of a few hundred bytes that claims ``side`` x ``side`` pixels."""
    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(b"\0" * 1024, 9)) + png_chunk(b"IEND", b""))


def noise_png(file: Path, w: int = 300, h: int = 300) -> Path:
    Image.frombytes("RGB", (w, h), os.urandom(w * h * 3)).save(file)
    return file


def image_case(make: Callable[[Path], str], message: str) -> Setup:
    """The playing card draws an image ``make`` prepares in the game's folder; the error
    names the template's ``image.path`` field and says ``message``."""
    def setup(env: Env) -> Expect:
        file = env.card_image(make(env.folder))
        return Expect(file.resolve(), "elements[0].image.path", message=message)
    return setup


def truncated(folder: Path) -> str:
    data = noise_png(folder / "full.png").read_bytes()
    (folder / "art.png").write_bytes(data[: len(data) // 2])
    return "art.png"


def write(name: str, content: bytes) -> Callable[[Path], str]:
    def make(folder: Path) -> str:
        (folder / name).write_bytes(content)
        return name
    return make


def symlink_image(folder: Path) -> str:
    (folder / "art.png").symlink_to("/etc/passwd")
    return "art.png"


def bmp_image(folder: Path) -> str:
    Image.new("RGB", (20, 20), "#336699").save(folder / "art.bmp")
    return "art.bmp"


def wide_image(folder: Path) -> str:
    Image.new("L", (20_000, 1)).save(folder / "art.png")
    return "art.png"


def folder_image(folder: Path) -> str:
    (folder / "art.png").mkdir()
    return "art.png"


SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
SVG_OPEN = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink" ' \
    b'viewBox="0 0 9 9">\n'
SVG_LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
              + b"".join(b'<!ENTITY %c "%s">' % (c, (b"&%c;" % (c - 1)) * 10)
                         for c in range(ord("b"), ord("j")))
              + b"]>\n" + SVG_OPEN + b"<desc>&i;</desc></svg>")
SVG_USE_BOMB = (SVG_OPEN + b'<g id="a0"><path d="M0 0h9v9z"/></g>\n'
                + b"".join(b'<g id="a%d">' % k + b'<use x:href="#a%d"/>' % (k - 1) * 10 + b"</g>\n"
                           for k in range(1, 8)) + b"</svg>")


# -- the cases -----------------------------------------------------------------------------

def data(old: str, new: str, fragment: str) -> Setup:
    """Replace ``old`` (once) in the game's data file; the error names it and ``fragment``."""
    def setup(env: Env) -> Expect:
        return Expect(env.edit(old, new), fragment)
    return setup


def data_text(mutate: Callable[[str], str | bytes], fragment: str) -> Setup:
    def setup(env: Env) -> Expect:
        result = mutate(env.data.read_text(encoding="utf-8"))
        if isinstance(result, bytes):
            env.data.write_bytes(result)
        else:
            env.data.write_text(result, encoding="utf-8")
        return Expect(env.data, fragment)
    return setup


def include(make: Callable[[Env], str], fragment: str = "include[0]") -> Setup:
    """``include: [<make(env)>]`` in Moving Target's data file."""
    def setup(env: Env) -> Expect:
        return Expect(env.edit("players: [2, 3]\n", f"players: [2, 3]\ninclude: [{make(env)}]\n"),
                      fragment)
    return setup


def included_file(text: str | bytes, fragment: str) -> Setup:
    """A hostile included file: the error names that file."""
    def setup(env: Env) -> Expect:
        extra = env.folder / "extra.yaml"
        if isinstance(text, bytes):
            extra.write_bytes(text)
        else:
            extra.write_text(text, encoding="utf-8")
        env.edit("players: [2, 3]\n", "players: [2, 3]\ninclude: [extra.yaml]\n")
        return Expect(extra, fragment)
    return setup


def symlink_out(env: Env) -> str:
    (env.folder / "link.yaml").symlink_to(env.outside())
    return "link.yaml"


def symlink_dir_out(env: Env) -> str:
    (env.folder / "shared").symlink_to(env.outside().parent, target_is_directory=True)
    return "shared/outside.yaml"


def fifo(env: Env) -> str:
    os.mkfifo(env.folder / "pipe.yaml")
    return "pipe.yaml"


def folder_yaml(env: Env) -> str:
    (env.folder / "dir.yaml").mkdir()
    return "dir.yaml"


def escape(env: Env) -> str:
    env.outside()
    return "../secret/outside.yaml"


def data_is(make: Callable[[Path], None]) -> Setup:
    """The data file itself replaced by something that is not a regular file."""
    def setup(env: Env) -> Expect:
        env.data.unlink()
        make(env.data)
        return Expect(env.data, "not a regular file")
    return setup


def setting(game: str, old: str, new: str, fragment: str) -> Case:
    return Case(f"{game}: {new.strip()}", data(old, new, fragment), game)


def component_rows(n_components: int, rows: int, count: int) -> str:
    """Extra rules-sheet components with ``rows`` items of ``count`` copies each."""
    out = ""
    for c in range(n_components):
        out += (f"  - id: extra-{c}\n    kind: sheet\n    name: Extra {c}\n    size: page\n"
                f"    face: rules-page\n    items:\n")
        out += "".join(f"      - {{title: t{r}, sections: [], count: {count}}}\n"
                       for r in range(rows))
    return out


def theme_file(text_of: Callable[[str], str | bytes], fragment: str,
               base: str = "standard") -> Setup:
    """A user theme (``--theme mine.yaml``) made from a built-in theme's text."""
    def setup(env: Env) -> Expect:
        theme = env.root / "themes-of-mine" / "mine.yaml"
        theme.parent.mkdir(exist_ok=True)
        text = text_of((paths.THEMES / f"{base}.yaml").read_text(encoding="utf-8"))
        if isinstance(text, bytes):
            theme.write_bytes(text)
        else:
            theme.write_text(text, encoding="utf-8")
        env.theme_args = ["--theme", str(theme)]
        return Expect(theme, fragment, ("build",))
    return setup


def theme_link(target: str | Callable[[Env], Path], fragment: str) -> Setup:
    """A user theme whose ``extends:`` names a symlink beside it leading elsewhere."""
    def setup(env: Env) -> Expect:
        folder = env.root / "themes-of-mine"
        folder.mkdir(exist_ok=True)
        (folder / "base.yaml").symlink_to(target if isinstance(target, str) else target(env))
        theme = folder / "mine.yaml"
        theme.write_text("extends: base.yaml\npalette:\n  back_bg: \"#123456\"\n",
                         encoding="utf-8")
        env.theme_args = ["--theme", str(theme)]
        return Expect(theme, fragment, ("build",))
    return setup


def builtin_theme(name: str, mutate: Callable[[str], str], fragment: str) -> Setup:
    """The game's own built-in theme, changed (build and verify both read it)."""
    def setup(env: Env) -> Expect:
        file = env.copy_of("THEMES") / f"{name}.yaml"
        file.write_text(mutate(file.read_text(encoding="utf-8")), encoding="utf-8")
        return Expect(file.resolve(), fragment)
    return setup


def face(mutate: Callable[[Path], None], fragment: str, blame_data: bool = False) -> Setup:
    """The playing card's face template, changed."""
    def setup(env: Env) -> Expect:
        file = env.copy_of("FACES") / "playing-card.yaml"
        mutate(file)
        return Expect(env.data if blame_data else file.resolve(), fragment)
    return setup


def icon(mutate: Callable[[Path], None], fragment: str, blame_data: bool = False) -> Setup:
    """The spade icon (named by Moving Target's suits table), changed."""
    def setup(env: Env) -> Expect:
        file = env.copy_of("ICONS") / "spade.yaml"
        mutate(file)
        return Expect(env.data if blame_data else file.resolve(), fragment)
    return setup


def text_edit(mutate: Callable[[str], str | bytes]) -> Callable[[Path], None]:
    def apply(file: Path) -> None:
        result = mutate(file.read_text(encoding="utf-8"))
        if isinstance(result, bytes):
            file.write_bytes(result)
        else:
            file.write_text(result, encoding="utf-8")
    return apply


def relink(target: str) -> Callable[[Path], None]:
    def apply(file: Path) -> None:
        file.unlink()
        file.symlink_to(target)
    return apply


CASES = [
    # -- bounded YAML (data file) --
    Case("billion laughs", data_text(lambda t: BILLION_LAUGHS + t, "alias bomb")),
    Case("small laughs", data_text(lambda t: SMALL_LAUGHS + t, "at most 5,000")),
    Case("more than 100 aliases", data_text(lambda t: MANY_ALIASES + t, "aliases")),
    Case("alias cycle", data_text(lambda t: "loop: &l [*l]\n" + t, "contains it")),
    Case("60-deep nesting", data(
        "  max_draws: 3 ", f"  deep: {nested(60)}\n  max_draws: 3 ", "nested deeper")),
    Case("5000-deep nesting", data_text(lambda t: f"deep: {nested(5000)}\n" + t,
                                        "nested deeper")),
    Case("deep nesting through aliases", data_text(
        lambda t: f"one: &a {nested(45)}\ntwo: &b [[[[[[[[*a]]]]]]]]\nthree: [[*b]]\n" + t,
        "deeper")),
    Case("5 MB file", data_text(lambda t: t + "# " + "x" * (5 * 1024 * 1024) + "\n",
                                "limit is 2 MB")),
    Case("NUL byte", data_text(lambda t: t.replace("\ntitle:", "\n\x00title:", 1), "NUL byte")),
    Case("invalid UTF-8", data_text(lambda t: t.encode() + b"junk: \xff\xfe\n", "not UTF-8")),
    Case("binary junk", data_text(lambda t: t.encode() + bytes(range(256)), "a binary")),
    Case("control character", data_text(lambda t: t.replace("Moving Target", "Mov\x07ing", 1),
                                         "control character")),
    Case("tab indentation", data("settings:\n  grid_size", "settings:\n\tgrid_size", "tab")),
    Case("python object tag", data_text(
        lambda t: "evil: !!python/object/apply:os.system [\"echo pwned\"]\n" + t,
        "!!python/object/apply:os.system")),
    Case("python name tag", data_text(lambda t: "evil: !!python/name:os.system\n" + t,
                                      "not allowed")),
    Case("custom tag", data_text(lambda t: "evil: !include /etc/passwd\n" + t, "not allowed")),
    Case("5000-digit number", data_text(lambda t: "big: " + "9" * 5000 + "\n" + t,
                                        "cannot read this value")),
    Case("impossible date", data_text(lambda t: "when: 2024-13-45\n" + t,
                                      "cannot read this value")),
    Case("duplicate key", data("    kind: card\n", "    kind: card\n    kind: spaceship\n",
                               "duplicate key 'kind'")),
    Case("unhashable key", data_text(lambda t: "? [a, b]\n: 1\n" + t, "unhashable")),
    Case("data file is /dev/zero", data_is(lambda f: f.symlink_to("/dev/zero"))),
    Case("data file is a FIFO", data_is(lambda f: os.mkfifo(f))),
    Case("data file is a folder", data_is(lambda f: f.mkdir())),
    # -- include: only regular .yaml files inside the data file's folder --
    Case("include /etc/passwd", include(lambda env: "/etc/passwd")),
    Case("include /dev/zero", include(lambda env: "/dev/zero")),
    Case("include ../ escape", include(escape)),
    Case("include absolute path", include(lambda env: str(env.outside()))),
    Case("include symlink escape", include(symlink_out)),
    Case("include through a symlinked folder", include(symlink_dir_out)),
    Case("include symlink to /dev/zero", include(
        lambda env: (env.folder / "z.yaml").symlink_to("/dev/zero") or "z.yaml")),
    Case("include a FIFO", include(fifo)),
    Case("include a folder", include(folder_yaml)),
    Case("include not YAML", include(lambda env: "notes.txt")),
    Case("include home", include(lambda env: "~/.ssh/id_rsa.yaml")),
    Case("include NUL in name", include(lambda env: '"a\\0.yaml"')),
    Case("include long name", include(lambda env: "a" * 300 + ".yaml")),
    Case("include missing", include(lambda env: "no-such.yaml")),
    Case("include not a string", include(lambda env: "{a: 1}")),
    Case("included billion laughs", included_file("tables: {}\n" + BILLION_LAUGHS,
                                                  "alias bomb")),
    Case("included NUL byte", included_file(b"tables:\n  t: [{a: \x00}]\n", "NUL byte")),
    Case("included without tables", included_file("hello: world\n", "tables")),
    Case("included row count 10**9", included_file("tables:\n  t: [{a: 1, count: 1000000000}]\n",
                                                   "tables.t[0].count")),
    # -- names of modules, themes, templates, icons --
    Case("unknown rules module", data("rules: moving_target", "rules: os", "rules")),
    Case("rules module traversal", data("rules: moving_target", "rules: ../../x", "rules")),
    Case("rules helper module", data("rules: moving_target", "rules: base", "rules")),
    Case("rules typo", data("rules: moving_target", "rules: moving_targte", "rules")),
    Case("theme traversal", data("theme: standard", "theme: ../../../etc/passwd", "theme")),
    Case("theme unknown", data("theme: standard", "theme: no-such-theme", "theme")),
    Case("face traversal", data("face: playing-card\n", "face: ../../../etc/passwd\n", "face")),
    Case("back unknown", data("back: playing-card-back", "back: no-such-back", "back")),
    Case("icon traversal in a table", data(SUIT, SUIT.replace("icon: spade",
                                                              "icon: ../../etc/passwd"),
                                           "tables.suits[0].icon")),
    Case("icon unknown in a table", data(SUIT, SUIT.replace("icon: spade", "icon: spaed"),
                                         "tables.suits[0].icon")),
    Case("id too long", data("id: moving-target", "id: " + "m" * 100, "id")),
    # -- settings have the types the rules read --
    setting("moving-target", "hand_size: {2: 10, 3: 7}", "hand_size: 3.7",
            "settings.hand_size"),
    setting("moving-target", "hand_size: {2: 10, 3: 7}", "hand_size: {2: 3.7, 3: 7}",
            "settings.hand_size.2"),
    setting("moving-target", "hand_size: {2: 10, 3: 7}", "hand_size: {2: 1000000000, 3: 7}",
            "settings.hand_size.2"),
    setting("moving-target", "grid_size: 5 ", "grid_size: many ", "settings.grid_size"),
    setting("moving-target", "max_draws: 3 ", "max_draws: 1000000000 ", "settings.max_draws"),
    setting("moving-target", "max_draws: 3 ", "max_drawz: 3 ", "settings.max_drawz"),
    setting("monster-day", "hand_size: 3 ", "hand_size: 3.7 ", "settings.hand_size"),
    setting("monster-day", "dice: d6 ", "dice: d20 ", "settings.dice"),
    setting("monster-day", "extended: false ", "extended: \"yes\" ", "settings.extended"),
    setting("moving-day-boxes", "tile_mm: 30 ", "tile_mm: many ", "settings.tile_mm"),
    setting("moving-day-boxes", "rounds: 8 ", "rounds: 1000000000 ", "settings.rounds"),
    setting("movement-game", "seats: {2: [S, N], 4: [S, W, N, E]}",
            "seats: {2: [S, X], 4: [S, W, N, E]}", "settings.seats.2"),
    setting("movement-game", "hand_size: 3 ", "hand_size: [3] ", "settings.hand_size"),
    # -- table rows: the data file's own checks, counts --
    Case("a Two with pips: []", data(TWO, TWO.replace("pips: [[0.5, 0], [0.5, 1]]", "pips: []"),
                                     "tables.ranks[1].pips")),
    Case("a Two with three pips", data(TWO, TWO.replace("[0.5, 1]]", "[0.5, 1], [0, 0]]"),
                                       "tables.ranks[1].pips")),
    Case("check with a bad expression", data("expect: \"{{ row.pips | length == row.value }}\"",
                                             "expect: \"{{ row.pips | nosuchfilter }}\"",
                                             "checks[0].expect")),
    Case("check escaping the sandbox", data(
        "expect: \"{{ row.pips | length == row.value }}\"",
        "expect: \"{{ row.__class__.__mro__[1].__subclasses__() }}\"", "checks[0].expect")),
    Case("check of an unknown table", data("  - table: ranks", "  - table: rank",
                                           "checks[0].table")),
    Case("row count 10**9", data(SUIT, SUIT.replace("}", ", count: 1000000000}"),
                                 "tables.suits[0].count")),
    Case("row count negative", data(SUIT, SUIT.replace("}", ", count: -1}"),
                                    "tables.suits[0].count")),
    Case("row count not a number", data(SUIT, SUIT.replace("}", ", count: many}"),
                                        "tables.suits[0].count")),
    Case("declared row count 10**9", data(
        "{direction: left, word: LEFT, dx: -1, dy: 0, count: 10}",
        "{direction: left, word: LEFT, dx: -1, dy: 0, count: 1000000000}",
        "tables.navigation[0].count"), "movement-game"),
    Case("item count 10**9", data("  - title: \"Moving Target: rules\"",
                                  "  - count: 1000000000\n        title: \"Moving Target: "
                                  "rules\"", "components[2].items")),
    Case("generate count 10**9", data("      product: {suit: suits, rank: ranks}",
                                      "      product: {suit: suits, rank: ranks}\n"
                                      "      count: 1000000000", "components[0].generate.count")),
    Case("product explosion", data("      product: {suit: suits, rank: ranks}",
                                   "      product: {suit: suits, rank: ranks, a: ranks, "
                                   "b: ranks, c: ranks, d: ranks}", "components[0].generate")),
    Case("component over the cap", data_text(
        lambda t: t + component_rows(1, MAX_COMPONENT_PIECES // 1000 + 1, 1000),
        "components[4]")),
    Case("game over the cap", data_text(
        lambda t: t + component_rows(MAX_GAME_PIECES // 5000 + 1, 5, 1000), "components[")),
    Case("players absurd", data("players: [2, 3]", "players: [2, 1000000000]", "players")),
    # -- a user theme (--theme path): anywhere, but what it names is confined --
    Case("theme ink_saver: \"yes\"", theme_file(lambda t: "ink_saver: \"yes\"\n" + t.replace(
        "\nink_saver:", "\nold_ink_saver:"), "ink_saver")),
    Case("theme extends traversal", theme_file(lambda t: "extends: ../../../etc/passwd\n" + t,
                                               "extends")),
    Case("theme extends ../ file", theme_file(lambda t: "extends: ../other.yaml\n" + t,
                                              "extends")),
    Case("theme extends absolute", theme_file(lambda t: "extends: /etc/passwd.yaml\n" + t,
                                              "extends")),
    Case("theme extends symlink escape", theme_link(lambda env: env.outside(), "extends")),
    Case("theme extends symlink to /dev/zero", theme_link("/dev/zero", "extends")),
    Case("theme extends itself by name", theme_file(lambda t: "extends: mine\n" + t, "extends")),
    Case("theme icon traversal", theme_file(
        lambda t: t.replace("labels:\n", "labels:\n  tokens: {1: {icon: ../../etc/passwd}}\n"),
        "labels.tokens.1.icon")),
    Case("theme NUL byte", theme_file(lambda t: t.replace("palette:", "palette:\x00", 1),
                                      "NUL byte")),
    Case("theme billion laughs", theme_file(lambda t: BILLION_LAUGHS + t, "alias bomb")),
    Case("theme small laughs", theme_file(lambda t: SMALL_LAUGHS + t, "at most 5,000")),
    Case("theme deep nesting", theme_file(lambda t: f"deep: {nested(80)}\n" + t,
                                          "nested deeper")),
    Case("theme 5 MB", theme_file(lambda t: t + "#" * (5 * 1024 * 1024), "limit is 2 MB")),
    Case("theme palette not a mapping", theme_file(
        lambda t: t.replace("\npalette:\n", "\npalette: 7\nold_palette:\n", 1), "palette")),
    Case("theme name not text", theme_file(lambda t: t.replace("name: standard", "name: [1]"),
                                           "name")),
    Case("built-in theme ink_saver: \"yes\"", builtin_theme(
        "standard", lambda t: t.replace("\nink_saver:", "\nink_saver: \"yes\"\nold_ink_saver:"),
        "ink_saver")),
    Case("built-in theme icon unknown", builtin_theme(
        "collections", lambda t: t.replace("icon: anime", "icon: animee"),
        "labels.tokens.1.icon"), "moving-day"),
    # -- face templates --
    Case("face template symlink to /etc/passwd", face(relink("/etc/passwd"),
                                                      "components[0].face", blame_data=True)),
    Case("face template NUL byte", face(text_edit(lambda t: t.replace("vars:", "vars:\x00")),
                                        "NUL byte")),
    Case("face template billion laughs", face(text_edit(lambda t: BILLION_LAUGHS + t),
                                              "alias bomb")),
    Case("face template python tag", face(text_edit(
        lambda t: "x: !!python/object/apply:os.system [id]\n" + t), "not allowed")),
    # -- images drawn by a face template --
    Case("image absolute path", image_case(lambda folder: "/etc/passwd", "is absolute")),
    Case("image ../ escape", image_case(lambda folder: "../../../../../../etc/passwd",
                                        "is outside")),
    Case("image symlink escape", image_case(symlink_image, "is a link leading outside")),
    Case("image SVG drawing nothing", image_case(write("art.svg", SVG), "draws nothing")),
    Case("image SVG named .png", image_case(write("art.png", SVG), "name it .svg")),
    Case("image SVG entity bomb", image_case(write("art.svg", SVG_LAUGHS),
                                             "line 2: a DOCTYPE declaration is not allowed")),
    Case("image SVG external href", image_case(write("art.svg", SVG_OPEN + b'<use x:href='
                                                     b'"http://example.com/a.svg#b"/></svg>'),
                                               "may only refer to its own elements")),
    Case("image SVG 3 MB", image_case(write("art.svg", SVG_OPEN + b"<!--" + b"x" * 3_000_000
                                            + b"--></svg>"), "limit for an SVG is 2 MB")),
    Case("image SVG text", image_case(write("art.svg", SVG_OPEN + b"<text>Hi</text></svg>"),
                                      "line 2: <text>: text is not drawn")),
    Case("image SVG <use> fan-out", image_case(write("art.svg", SVG_USE_BOMB),
                                               "once every <use> is expanded")),
    Case("image SVG compressed", image_case(write("art.svgz", b"\x1f\x8b" + bytes(100)),
                                            "compressed SVG")),
    Case("image truncated PNG", image_case(truncated, "truncated")),
    Case("image decompression bomb", image_case(write("art.png", bomb_png()),
                                                "decompression bomb")),
    Case("image too wide", image_case(wide_image, "12000 a side")),
    Case("image corrupt bytes", image_case(write("art.png", b"\x89PNG" + os.urandom(2000)),
                                           "not an image")),
    Case("image empty", image_case(write("art.png", b""), "empty")),
    Case("image BMP", image_case(bmp_image, "is BMP")),
    Case("image a folder", image_case(folder_image, "not a regular file")),
    Case("image missing", image_case(lambda folder: "missing.png", "not found")),
    # -- icons --
    Case("icon file symlink to /etc/passwd", icon(relink("/etc/passwd"), "tables.suits[0].icon",
                                                  blame_data=True)),
    Case("icon file NUL byte", icon(text_edit(lambda t: t + "\x00"), "NUL byte")),
    Case("icon file billion laughs", icon(text_edit(lambda t: BILLION_LAUGHS + t),
                                          "alias bomb")),
    Case("icon circle not numbers", icon(text_edit(
        lambda t: t.replace("shapes:\n", "shapes:\n  - circle: [a, b, c]\n", 1)),
        "shapes[0].circle")),
    Case("icon view of zero", icon(text_edit(lambda t: "view: [0, 0]\n" + t.replace(
        "view:", "old_view:", 1) if "view:" in t else "view: [0, 0]\n" + t), "view")),
    Case("icon path not text", icon(text_edit(
        lambda t: t.replace("shapes:\n", "shapes:\n  - path: [1, 2]\n", 1)), "shapes[0].path")),
]


def test_there_are_enough_cases():
    assert len(CASES) >= 60
    assert len({case.name for case in CASES}) == len(CASES)


def _run(argv: list[str], capsys) -> tuple[int, str]:
    """Run the command line; its exit code and what it printed. Each case's message names the
    bound that stopped it (an alias bomb, a nesting depth, a size cap): that the work was
    bounded is shown by the bound's own name, never by a stopwatch."""
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.fixture
def fresh_caches():
    """Templates and icons are cached by name; a case may swap their folders."""
    load_template.cache_clear()
    load_icon.cache_clear()
    yield
    load_template.cache_clear()
    load_icon.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_input_exits_2(case, tmp_path, monkeypatch, capsys, fresh_caches):
    env = Env(tmp_path, monkeypatch, case.game)
    expect = case.setup(env)
    for command in expect.commands:
        out = tmp_path / f"out-{command}"
        argv = [command, str(env.data)]
        if command == "build":
            argv += ["--out", str(out), *env.theme_args]
        code, output = _run(argv, capsys)
        assert code == 2, f"{command}: exit {code}\n{output[-2000:]}"
        assert "Traceback" not in output
        errors = [line for line in output.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, output[-2000:]
        named = {str(expect.file), str(expect.file.resolve())}
        assert any(f"error: {name}" in errors[0] for name in named), (named, errors[0])
        assert expect.field in errors[0], errors[0]
        assert expect.message in errors[0], errors[0]
        assert "/etc/passwd" not in output or "root:" not in output  # never its content
        assert not out.exists() or not any(out.rglob("*")), sorted(out.rglob("*"))


# -- what must still work ------------------------------------------------------------------

@pytest.mark.slow
def test_an_image_in_the_games_folder_is_drawn(tmp_path, monkeypatch, capsys, fresh_caches):
    env = Env(tmp_path, monkeypatch)
    noise_png(env.folder / "art.png", 64, 64)
    env.card_image("art.png")
    code, output = _run(["build", str(env.data), "--out", str(tmp_path / "out")], capsys)
    assert code == 0, output
    assert (tmp_path / "out" / "moving-target" / "moving-target.pdf").exists()


@pytest.mark.slow
def test_an_include_below_the_games_folder_is_read(tmp_path, monkeypatch, capsys):
    env = Env(tmp_path, monkeypatch, "monster-day")
    (env.folder / "decks").mkdir()
    shutil.move(env.folder / "decktet.yaml", env.folder / "decks" / "decktet.yaml")
    env.edit("include: [decktet.yaml,", "include: [decks/decktet.yaml,")
    code, output = _run(["verify", str(env.data)], capsys)
    assert code == 0, output


@pytest.mark.slow
def test_a_user_theme_may_extend_a_theme_beside_it(tmp_path, monkeypatch, capsys):
    env = Env(tmp_path, monkeypatch)
    (tmp_path / "base.yaml").write_text("extends: standard\npalette:\n  ink: \"#222222\"\n")
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"extends: {tmp_path / 'base.yaml'}\n")
    code, output = _run(["build", str(env.data), "--theme", str(mine), "--out",
                            str(tmp_path / "out")], capsys)
    assert code == 0, output


def test_image_check_is_cached_per_file(tmp_path):
    art = noise_png(tmp_path / "art.png", 32, 32)
    resolve.allow_game_folder(tmp_path)
    resolve.check_image.cache_clear()
    assert resolve.image_file("art.png") == art.resolve()
    assert resolve.image_file("art.png") == art.resolve()
    info = resolve.check_image.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_pillow_bomb_limit_is_ours():
    assert Image.MAX_IMAGE_PIXELS == resolve.MAX_IMAGE_PIXELS
