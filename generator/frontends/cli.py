"""Command line: ``pnp COMMAND`` (also ``python -m generator COMMAND``): build, preview, png,
tts, verify, simulate, deal, calibration, i18n, list, init, trust, eject, watch, serve, schema,
reference; ``pnp --help`` says what each does. Each command is one ``cmd_*`` function calling
the application layer (generator/frontends/app.py), and one block of ``parser``.

Exit status: 0 on success; 2 for bad input (a data file: the message names file, line and
field; or an option out of range); 1 for anything else, such as an output that cannot be
written (``error: cannot write PATH: reason``) or a build past the memory there is; 130
after Ctrl-C (``interrupted``). Each error is one ``error:`` line on stderr, never a
traceback. Outputs are written atomically (see generator/core/atomic.py), so a failed or
interrupted build leaves the previous ones intact.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import math
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from generator.core.progress import track
from generator.frontends import app
from generator.frontends.app import (
    DEFAULT_LOCK_TIMEOUT,
    PAPER_SIZES,
    BuildOptions,
    CompositionError,
    DataError,
    ForwardedError,
    InputError,
    reported,
    set_lock_timeout,
)

# Limits of the numeric options (mm unless noted); the margin's upper bound depends on the paper.
GAP_MAX = 20.0
BLEED_MAX = 10.0
BACK_SHIFT_MAX = 20.0
DPI_RANGE = (72, 1200)
JOBS_MAX = 256


class UsageError(Exception):
    """An option out of range: the CLI prints ``error: <message>`` and exits with 2."""


def _games(args: argparse.Namespace, writes: bool = True) -> list[str]:
    """The games named (or every game), refusing two that would write one output folder."""
    return app.games(args.games, Path(args.out) if writes else None)


def _number(name: str, value: float, low: float, high: float, unit: str = " mm",
            below: bool = False, note: str = "") -> None:
    """Refuse a value that is not finite or not within [low, high] ([low, high) if below)."""
    ok = math.isfinite(value) and low <= value and (value < high if below else value <= high)
    if not ok:
        upper = f"less than {round(high, 2):g}" if below else f"{round(high, 2):g}"
        raise UsageError(f"{name} must be a number from {low:g} to {upper}{unit}{note} "
                         f"(got {value:g})")


def _whole(name: str, value: int, low: int, high: int | None = None, note: str = "") -> None:
    if value < low or (high is not None and value > high):
        allowed = f" from {low} to {high}" if high is not None else f", at least {low}"
        raise UsageError(f"{name} must be a whole number{allowed}{note} (got {value})")


def validate(args: argparse.Namespace) -> None:
    """Check the options argparse cannot (ranges, finiteness); raises UsageError."""
    if hasattr(args, "margin"):
        paper = PAPER_SIZES[args.paper]
        third = min(paper.w, paper.h) / 3
        _number("--margin", args.margin, 0, third, below=True,
                note=f" on {args.paper} paper (a third of its shorter side)")
        _number("--gap", args.gap, 0, GAP_MAX)
        _number("--bleed", args.bleed, 0, BLEED_MAX)
        _number("--back-dx", args.back_dx, -BACK_SHIFT_MAX, BACK_SHIFT_MAX)
        _number("--back-dy", args.back_dy, -BACK_SHIFT_MAX, BACK_SHIFT_MAX)
    if getattr(args, "dpi", None) is not None:
        _whole("--dpi", args.dpi, *DPI_RANGE)
    if hasattr(args, "n"):
        _whole("--n", args.n, 1)
    if getattr(args, "jobs", None) is not None:  # build's default (None): one per core
        _whole("--jobs", args.jobs, 1, JOBS_MAX)
    if hasattr(args, "wait"):
        _number("--wait", args.wait, 0, 86400, unit=" seconds")
        set_lock_timeout(args.wait)


def _players(args: argparse.Namespace, game_ids: Sequence[str]) -> dict[str, list[int]]:
    """The player counts to simulate for each game. --players must be a count each named game
    allows; with no game named, games that do not allow it are skipped (and at least one must
    allow it)."""
    counts: dict[str, list[int]] = {}
    refused: list[UsageError] = []
    for game_id in game_ids:
        game = app.load(game_id)
        low, high = game.players
        if args.players is None:
            counts[game_id] = list(range(low, high + 1))
            continue
        try:
            _whole("--players", args.players, low, high, note=f" for {game.id}")
        except UsageError as exc:
            if args.games:
                raise
            refused.append(exc)
            counts[game_id] = []
            continue
        counts[game_id] = [args.players]
    if refused and not any(counts.values()):
        raise UsageError(f"--players must be a player count of some game (got {args.players}; "
                         "the games allow " + ", ".join(
                             f"{g}: {c}" for g, c in _ranges(game_ids).items()) + ")")
    return counts


def _ranges(game_ids: Sequence[str]) -> dict[str, str]:
    out = {}
    for game_id in game_ids:
        low, high = app.load(game_id).players
        out[game_id] = f"{low}-{high}" if low != high else str(low)
    return out


def _options(args: argparse.Namespace) -> BuildOptions:
    return BuildOptions(paper=args.paper, theme=args.theme or None, ink_saver=args.ink_saver,
                        margin=args.margin, gap=args.gap, bleed=args.bleed, flip=args.flip,
                        back_dx=args.back_dx, back_dy=args.back_dy, force=args.force,
                        layout=args.layout, lang=args.lang,
                        cut_svg=getattr(args, "cut_svg", False), out_dir=Path(args.out))


def cmd_build(args: argparse.Namespace) -> int:
    opts = _options(args)
    games = _games(args)
    built = app.build_many(games, opts, args.jobs)  # the pipeline imported, nothing forked
    gc.freeze()  # what lives to the end is walked by no pass of the collector (collector_eased)
    for done in track(built, "building", len(games)):
        print(f"{done.game_id}: {done.pages} pages -> {done.target}")
        if done.untranslated:  # never silent English
            print(f"{done.game_id}: {done.untranslated} texts have no {opts.lang} "
                  f"translation and print in English (pnp verify --lang {opts.lang} "
                  f"{done.game_id} lists them)")
    return 0


# The collector's thresholds while a build runs (generation 0, then 1 and 2): see
# collector_eased.
BUILD_THRESHOLDS = (10_000, 20, 20)


@contextlib.contextmanager
def collector_eased() -> Iterator[None]:
    """Python's cyclic garbage collector runs less often while ``pnp build`` runs (its notes,
    the build, and the workers it forks), but runs. Why less often: a build allocates hundreds
    of thousands of objects that live (the pipeline's modules, the game's data, the pages),
    and at the default thresholds (700, 10, 10) the collector walks the young ones again and
    again. Why still on: a project's own engine or templates could drop cycles without bound
    until the command ends. Measured (CPU of the whole process and its workers, medians of 9
    paired runs, five kits warm): 1.34-1.40 s at the defaults; 1.22-1.26 s with the collector
    off (``gc.disable``, as before); 1.24-1.28 s with generation 0 at 10,000 (20, 20 above
    it) and, once the pipeline is imported, what lives frozen (cmd_build): most of the gain
    (50,000 or 100,000 add nothing). 1,000,000 dropped two-dict cycles peak at 377 MB with the
    collector off and at 11 MB with these thresholds. Only ``build``: a command that runs on
    (watch, serve) keeps the defaults."""
    was = gc.get_threshold()
    gc.set_threshold(*BUILD_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*was)
        gc.unfreeze()  # what cmd_build froze is collectable again (tests call main in turn)


def cmd_preview(args: argparse.Namespace) -> int:
    games = _games(args)  # every game when none are named; refuses two with one id
    target = app.preview(_options(args), n_games=args.n, named=games)
    print(f"preview -> {target}")
    return 0


def cmd_png(args: argparse.Namespace) -> int:
    opts = _options(args)
    for game_id in _games(args):
        folder, count = app.export_pngs(game_id, opts, dpi=args.dpi, jobs=args.jobs,
                                        preset=args.preset)
        print(f"{game_id}: {count} PNGs ({args.preset}) -> {folder}")
    return 0


def cmd_tts(args: argparse.Namespace) -> int:
    """A Tabletop Simulator saved object per game (generator/orchestration/exporters/tts.py)."""
    opts = BuildOptions(theme=args.theme or None, force=args.force, lang=args.lang,
                        out_dir=Path(args.out))
    for game_id in _games(args):
        target, objects, left_out = app.export_tts(game_id, opts, args.base_url, args.jobs,
                                                   args.dpi)
        print(f"{game_id}: {objects} objects (Tabletop Simulator) -> {target}")
        if left_out:
            print(f"{game_id}: not on the virtual table: {', '.join(left_out)} (dice nets "
                  "and printed sheets)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Composition (is the set right?) then pre-flight (will it print right?). Pre-flight
    problems are warnings unless --strict."""
    failed = 0
    opts = BuildOptions(paper=args.paper, flip=args.flip, lang=args.lang)
    print("[rulebook]: checked against the game's published rules or card list; "
          "[design]: a target of this kit (legibility, cutting, paper, our readings)")
    for game_id in _games(args, writes=False):
        game, findings = app.verify_report(game_id, opts)
        bad = sum(not f.ok and (not f.warn or args.strict) for f in findings)
        warned = sum(not f.ok and f.warn for f in findings)
        failed += bad
        status = f"{bad} FAILED" if bad else ("OK" if not warned else f"OK, {warned} warnings")
        print(f"{game.title} ({game.id}): {status}")
        for finding in findings:
            print(finding.line())
    return 1 if failed else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Seeded playouts. A game without a play engine (no ``rules:`` module) is an error when
    named (exit 2, before anything is simulated); with no game named it is skipped, saying
    so, and the others are simulated."""
    games = _games(args)
    loaded = {game_id: app.load(game_id) for game_id in games}
    engines = {game_id: app.engine(game) for game_id, game in loaded.items()}
    missing = [loaded[game_id].id for game_id in games if engines[game_id] is None]
    if missing and (args.games or len(missing) == len(games)):
        raise UsageError("; ".join(app.no_engine(game_id) for game_id in missing))
    for game_id in missing:
        print(app.no_engine(game_id))
    games = [game_id for game_id in games if engines[game_id] is not None]
    player_counts = _players(args, games)  # every game checked before any is simulated
    for game_id in games:
        game = loaded[game_id]
        if not player_counts[game_id]:
            print(f"== {game.title}: not for {args.players} players, skipped ==")
        wrong = app.unknown_variant(game, args.variant)
        if wrong:
            raise UsageError(wrong)
        for players in player_counts[game_id]:
            ran = False
            if args.replay is not None:
                for heading, text in app.replay(game, players, args.replay, args.policy,
                                                args.variant):
                    ran = True
                    print(f"== {heading} ==")
                    print(text)
                if not ran:
                    print(f"== {game.title}, {players} players: not a player count of this "
                          "game ==")
                continue
            for heading, report, chart in app.simulate(game, players, args.n, args.seed,
                                                       args.jobs, args.policy, Path(args.out),
                                                       compare=args.compare,
                                                       variant=args.variant):
                ran = True
                print(f"== {heading} ==")
                print(report)
                print(f"chart -> {chart}")
            if not ran:
                print(f"== {game.title}, {players} players: not a player count of this game ==")
    return 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Deal statistics of a game's deck (generator/rules/deal.py): exact where one hand
    decides, seeded Monte Carlo otherwise, the method beside each figure."""
    if args.at_least is not None and args.where is None:
        raise UsageError("--at-least K needs --where CONDITION (the kind of card counted)")
    if args.draws is not None and args.none is None and args.where is None:
        raise UsageError("--draws D needs --none CONDITION or --at-least K --where CONDITION "
                         "(the cards looked for in the draws)")
    if args.draws is not None and args.draws < 1:
        raise UsageError(f"--draws must be a whole number of cards, at least 1 (got "
                         f"{args.draws})")
    try:
        lines = app.deal(args.game, args.players, args.hand, args.component, args.suit,
                         args.trials, args.seed, args.none, args.at_least, args.where,
                         args.draws)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print("\n".join(lines))
    return 0


def cmd_calibration(args: argparse.Namespace) -> int:
    target = app.calibration(Path(args.out), args.paper, args.flip, args.lang)
    print(f"duplex calibration sheet -> {target}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    """Build, then rebuild on every save until Ctrl-C (exit 130); see
    generator/frontends/watch.py."""
    if not args.games:  # none named, and not in a project folder (main looked)
        raise UsageError("watch needs a game id, a data file or a project folder (or run it "
                         "in a project folder)")
    from generator.frontends import watch  # a front end above the application layer

    return watch.main(args.games, _options(args))


def cmd_serve(args: argparse.Namespace) -> int:
    """The live studio in the browser until Ctrl-C (exit 130): generator/frontends/studio/."""
    if len(args.games) != 1:  # none named and not in a project, or several
        raise UsageError("serve needs one game id, data file or project folder (or run it in "
                         "a project folder)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port from 1 to 65535 (0: any free port)")
    from generator.frontends import studio  # a front end above the application layer

    return studio.main(args.games[0], _options(args), args.port, not args.no_open)


def cmd_schema(args: argparse.Namespace) -> int:
    for file in app.schemas(Path(args.out)):
        print(f"schema -> {file}")
    return 0


def cmd_reference(args: argparse.Namespace) -> int:
    target = app.reference(Path(args.out) if args.out else None)
    print(f"authoring reference -> {target}")
    return 0


def cmd_init(args: argparse.Namespace) -> int:
    """A new project folder holding a small game that builds at once
    (generator/data/files/project.py); with --engine, a rules.py that plays it."""
    folder = Path(args.folder)
    written = app.init(folder, engine=args.engine)
    shown = shlex.quote(args.folder)
    after = (f"pnp trust {shown} && pnp simulate {shown} (rules.py is Python: trusting the "
             "folder lets pnp run it)" if args.engine else f"pnp build {shown}")
    print(f"{len(written)} files -> {folder}/; next: {after}")
    return 0


def cmd_eject(args: argparse.Namespace) -> int:
    """``pnp eject face rules-page [DIR]``: a built-in face template, theme or icon copied
    into the project to change (generator/data/files/project.py); ``--list``: the names."""
    if args.list:
        if args.name:
            raise UsageError(f"eject {args.kind} --list takes no name")
        for name in app.ejectable(args.kind):
            print(name)
        return 0
    if not args.name:
        raise UsageError(f"eject needs a name: pnp eject {args.kind} NAME [DIR] (--list: the "
                         "names)")
    copy = app.eject(args.kind, args.name, Path(args.folder))[1]
    print(f"{copy} <- built-in {args.kind} {args.name}: the project now uses your copy "
          f"(its comments and fields: say what it reads; delete it to go back)")
    return 0


def _relative(path: Path) -> Path:
    """``path`` from where the user stands, when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def cmd_i18n(args: argparse.Namespace) -> int:
    """Write or update a project's catalogue (messages/<lang>.yaml) with every text its kit
    prints untranslated (generator/data/translation/i18n_skeleton.py)."""
    done, values, blanks = app.catalogue(args.folder, args.lang)
    shown = _relative(done.file)
    if done.changed:
        print(f"{shown}: {done.added} texts to translate, {done.kept} translations kept, "
              f"{done.obsolete} marked obsolete"
              + (f" (the file as it was: {_relative(done.backup)})" if done.backup else ""))
    else:
        print(f"{shown}: up to date ({done.added} texts to translate)")
    if values:
        print(f"{values} texts are printed from the data without t(): translate them in a "
              f"<column>@{args.lang} column beside theirs (or print them with t()); "
              f"pnp verify --lang {args.lang} {shlex.quote(args.folder)} lists them")
    if blanks:
        print(f"{blanks} cells of <column>@{args.lang} columns are blank: fill them in "
              f"their tables; pnp verify --lang {args.lang} {shlex.quote(args.folder)} "
              "lists them")
    return 0


def cmd_trust(args: argparse.Namespace) -> int:
    """``pnp trust DIR`` lets pnp run a project's own Python (its rules.py); ``--list`` and
    ``--revoke DIR`` (generator/core/trust.py)."""
    if args.list:
        if args.folder or args.revoke:
            raise UsageError("trust --list takes no folder")
        listed = app.trusted()
        for folder, state in listed:
            if state == "trusted":
                print(f"{folder}  (trusted)")
            elif state == "gone":
                print(f"{folder}  (gone: not trusted)")
            else:  # its Python files are not those trusted
                print(f"{folder}  ({state}: not run until trusted again: "
                      f"pnp trust {shlex.quote(str(folder))})")
        if not listed:
            print("no trusted folders")
        return 0
    if args.revoke:
        if args.folder:
            raise UsageError("give one folder: pnp trust --revoke DIR")
        removed = app.revoke(Path(args.revoke))
        print(f"{args.revoke}: " + ("no longer trusted" if removed else "was not trusted"))
        return 0
    if not args.folder:
        raise UsageError("trust needs a project folder (or --list, or --revoke DIR)")
    real = app.trust(Path(args.folder))
    print(f"trusted {real}: pnp will run this folder's own Python (its rules engine) as "
          "it is now (a Python file edited, added or removed asks again); "
          f"undo with: pnp trust --revoke {shlex.quote(str(real))}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """The projects in DIR (or the current folder: itself, or the folders in it), then the
    built-in games; a project that does not load is an ``error:`` line (exit 2 at the end)."""
    projects = list(app.project_list(Path(args.folder) if args.folder else None))
    failed = 0
    if projects:
        print("projects:")
        for line, error in projects:
            if error is None:
                print(line)
            else:
                failed += 1
                print(f"error: {error}", file=sys.stderr)
        print("built-in games:")
    for line in app.game_list():
        print(line)
    return 2 if failed else 0


class _Version(argparse.Action):
    """``--version``, its version read only when asked for: reading it (the checkout's
    pyproject.toml, or the installed metadata) was a tenth of ``pnp list``'s time."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        sys.stdout.write(f"{parser.prog} {app.version()}\n")  # as argparse's own, on stdout
        parser.exit()


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="pnp",
                                 description="Print-and-play kits from game data files.")
    ap.add_argument("--version", action=_Version, nargs=0,
                    help="show the program's version number and exit")
    sub = ap.add_subparsers(dest="command", required=True)

    def lang_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--lang", choices=app.languages(), default="en",
                       help="the kit's language: furniture messages and the game's "
                            "translations (default en)")

    def layout_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("games", nargs="*", help="game ids, data files or project folders "
                       "(default: the project in this folder, else every built-in game)")
        lang_arg(p)
        p.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
        p.add_argument("--theme", default="", help="built-in theme name or a theme YAML file")
        p.add_argument("--ink-saver", action="store_true", help="white backgrounds, outlines")
        p.add_argument("--margin", type=float, default=5.0, help="printer margin, mm")
        p.add_argument("--gap", type=float, default=0.0, help="space between cards, mm")
        p.add_argument("--bleed", type=float, default=0.0, help="art past the trim, mm")
        p.add_argument("--flip", choices=("long", "short"), default="long",
                       help="duplex flip edge for back pages")
        p.add_argument("--back-dx", type=float, default=0.0,
                       help="shift back pages right by this many mm (duplex calibration)")
        p.add_argument("--back-dy", type=float, default=0.0,
                       help="shift back pages down by this many mm (duplex calibration)")
        p.add_argument("--layout", choices=("sheets", "gutterfold", "single"), default="sheets",
                       help="card sheets (duplex), gutterfold (fold and glue) or one piece per "
                            "page with bleed and TrimBox (print shops)")
        p.add_argument("--force", action="store_true", help="print even if verify fails")
        p.add_argument("--out", default=None, help="output folder (default: a project "
                       f"folder's own output/, else {app.OUTPUT})")
        wait_arg(p)
        trust_arg(p)

    def trust_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--trust", action="store_true",
                       help="run the project's own Python (rules.py) for this command only "
                            "(pnp trust DIR: always)")

    def wait_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--wait", type=float, default=DEFAULT_LOCK_TIMEOUT, metavar="SECONDS",
                       help="how long to wait while another build writes to the same output "
                            f"folder (default {DEFAULT_LOCK_TIMEOUT:g}; 0: give up at once)")

    build = sub.add_parser("build", help="build PDF kits into output/<id>/<id>.pdf")
    layout_args(build)
    build.add_argument("--jobs", type=int, default=None,
                       help="games built at once, one process each (default: one per core)")
    build.add_argument("--cut-svg", action="store_true",
                       help="also write <kit>-cut/: one SVG of cut lines per sheet side, true "
                            "size in mm, for laser and die-cutting machines")
    build.set_defaults(func=cmd_build)

    preview = sub.add_parser("preview", help="HTML gallery of every game: output/preview/")
    layout_args(preview)
    preview.add_argument("--n", type=int, default=200, help="simulated games per set-up")
    preview.set_defaults(func=cmd_preview)

    png = sub.add_parser("png", help="one PNG per face into output/<id>/png/")
    layout_args(png)
    png.add_argument("--dpi", type=int, default=None,
                     help=f"default: the preset's (300); {DPI_RANGE[0]}-{DPI_RANGE[1]}")
    png.add_argument("--preset", choices=("default", "tgc", "mpc"), default="default",
                     help="print-shop image format: tgc = The Game Crafter, mpc = "
                          "MakePlayingCards")
    png.add_argument("--jobs", type=int, default=2, help="worker processes (at least 1)")
    png.set_defaults(func=cmd_png)

    tts = sub.add_parser("tts", help="a Tabletop Simulator saved object into "
                                     "output/<id>/tts/<id>.json, with its images")
    tts.add_argument("games", nargs="*", help="game ids, data files or project folders "
                                              "(default: every game)")
    lang_arg(tts)
    tts.add_argument("--theme", default="", help="built-in theme name or a theme YAML file")
    tts.add_argument("--base-url", default=None, metavar="URL",
                     help="where the tts folder will be hosted (http or https): image URLs "
                          "start with it (default: file:/// URLs of the images written here)")
    tts.add_argument("--force", action="store_true", help="export even if verify fails")
    trust_arg(tts)
    tts.add_argument("--jobs", type=int, default=2, help="worker processes (at least 1)")
    tts.add_argument("--dpi", type=int, default=150,
                     help=f"the images' resolution (default 150; less for a piece whose image "
                          f"would pass 4096 pixels); {DPI_RANGE[0]}-{DPI_RANGE[1]}")
    tts.add_argument("--out", default=None, help="output folder (default: a project "
                     f"folder's own output/, else {app.OUTPUT})")
    wait_arg(tts)
    tts.set_defaults(func=cmd_tts)

    ver = sub.add_parser("verify", help="each game's composition and pre-flight report")
    ver.add_argument("games", nargs="*", help="game ids, data files or project folders "
                     "(default: the project in this folder, else every built-in game)")
    ver.add_argument("--strict", action="store_true",
                     help="pre-flight warnings fail too (exit 1)")
    ver.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    ver.add_argument("--flip", choices=("long", "short"), default="long")
    lang_arg(ver)
    trust_arg(ver)
    ver.set_defaults(func=cmd_verify)

    sim = sub.add_parser("simulate", help="play seeded games and report")
    sim.add_argument("games", nargs="*")
    sim.add_argument("--n", "--games", dest="n", type=int, default=1000,
                     help="games per set-up (at least 1)")
    sim.add_argument("--players", type=int, default=None,
                     help="one player count within the game's range (default: each count)")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=2)
    sim.add_argument("--policy", choices=("random", "greedy"), default="random")
    sim.add_argument("--compare", action="store_true",
                     help="also play the same games under the other policy (random against "
                          "greedy) and compare the two")
    sim.add_argument("--variant", default=None,
                     help="only this set-up (a board) of a game that has several")
    sim.add_argument("--replay", type=int, default=None, metavar="GAME_SEED",
                     help="play the one game of this game seed (what a fault's replay hint "
                          "names) and say how it went")
    sim.add_argument("--out", default=None)
    wait_arg(sim)
    trust_arg(sim)
    sim.set_defaults(func=cmd_simulate)

    deal = sub.add_parser("deal", help="how a game's deck falls when dealt: suit lengths, "
                                       "voids, hands without a kind of card")
    deal.add_argument("game", help="a game id, a data file or a project folder")
    deal.add_argument("--players", type=int, default=4, help="hands dealt (default 4)")
    deal.add_argument("--hand", type=int, default=8, help="cards in each hand (default 8)")
    deal.add_argument("--component", default=None,
                      help="the component dealt (default: the card component of the most "
                           "pieces)")
    deal.add_argument("--suit", default=None, metavar="FIELD",
                      help="the field that is a card's suit (default: the first of suit, "
                           "suits, colour, color every card has)")
    deal.add_argument("--none", default=None, metavar="CONDITION",
                      help="also: the chance a hand has no card matching FIELD=VALUE or "
                           "\"{{ item.rank.value > 7 }}\"")
    deal.add_argument("--at-least", type=int, default=None, metavar="K",
                      help="also: the chance a hand holds K or more cards matching --where")
    deal.add_argument("--where", default=None, metavar="CONDITION",
                      help="the cards --at-least counts (as --none)")
    deal.add_argument("--draws", type=int, default=None, metavar="D",
                      help="also ask --none and --at-least of the first D cards drawn from "
                           "the deck after the deal")
    deal.add_argument("--trials", type=int, default=10_000,
                      help="seeded deals for the figures that are not exact (default 10000)")
    deal.add_argument("--seed", type=int, default=1)
    deal.set_defaults(func=cmd_deal)

    cal = sub.add_parser("calibration", help="a duplex calibration sheet (2 pages)")
    cal.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    cal.add_argument("--flip", choices=("long", "short"), default="long")
    lang_arg(cal)
    cal.add_argument("--out", default=None)
    wait_arg(cal)
    cal.set_defaults(func=cmd_calibration)

    i18 = sub.add_parser("i18n", help="write or update a project's translation catalogue "
                                      "(messages/<lang>.yaml) with every untranslated text")
    i18.add_argument("folder", nargs="?", default=".",
                     help="the project folder (default: the current folder)")
    lang_arg(i18)
    i18.set_defaults(func=cmd_i18n)

    lst = sub.add_parser("list", help="list the projects (in DIR, or here) and the built-in "
                                      "games, with their components")
    lst.add_argument("folder", nargs="?", metavar="DIR",
                     help="a project folder, or a folder of projects (default: here)")
    lst.set_defaults(func=cmd_list)

    ini = sub.add_parser("init", help="write a small working game into a new project folder")
    ini.add_argument("folder", help="the project folder to create (must be new or empty)")
    ini.add_argument("--engine", action="store_true",
                     help="add rules.py, a small rules engine for the game (Python: simulate "
                          "and worked examples; see docs/engines.md)")
    ini.set_defaults(func=cmd_init)

    tru = sub.add_parser("trust", help="let pnp run a project folder's own Python (its "
                                       "rules.py); --list, --revoke DIR")
    tru.add_argument("folder", nargs="?", help="the project folder to trust")
    tru.add_argument("--list", action="store_true", help="list the trusted folders")
    tru.add_argument("--revoke", metavar="DIR", default=None, help="stop trusting DIR")
    tru.set_defaults(func=cmd_trust)

    eje = sub.add_parser("eject", help="copy a built-in face template, theme or icon into a "
                                       "project, to change it there")
    eje.add_argument("kind", choices=("face", "theme", "icon"))
    eje.add_argument("name", nargs="?", help="the built-in's name (--list: the names)")
    eje.add_argument("folder", nargs="?", default=".",
                     help="the project folder (default: the current folder)")
    eje.add_argument("--list", action="store_true", help="list the built-in names")
    eje.set_defaults(func=cmd_eject)

    # -- watch, schema, reference (issue 12: authoring) --
    wat = sub.add_parser("watch", help="build, then rebuild a game each time its files are "
                                       "saved (Ctrl-C stops)")
    layout_args(wat)
    wat.set_defaults(func=cmd_watch)
    srv = sub.add_parser("serve", help="a live studio in the browser: sheets, faces, the "
                                       "report, redrawn as you save (Ctrl-C stops)")
    layout_args(srv)
    srv.add_argument("--port", type=int, default=0,
                     help="the port on 127.0.0.1 (default: any free port)")
    srv.add_argument("--no-open", action="store_true", help="do not open a browser")
    srv.set_defaults(func=cmd_serve)
    sch = sub.add_parser("schema", help="write JSON Schema files for editors (completion, "
                                        "inline errors)")
    sch.add_argument("--out", default="schemas", help="folder to write them to "
                                                      "(default: ./schemas)")
    sch.set_defaults(func=cmd_schema)
    ref = sub.add_parser("reference", help="regenerate the authoring reference "
                                           "(docs/authoring.md)")
    ref.add_argument("--out", default=None, help="file to write (default: docs/authoring.md "
                                                 "in a checkout, ./authoring.md installed)")
    ref.set_defaults(func=cmd_reference)
    return ap


# Commands whose --out defaults to the project's output/ (the built-in output/ for built-in
# games and data files named by path): generator/data/files/project.py decides.
KIT_COMMANDS = ("build", "png", "preview", "simulate", "calibration", "watch", "tts", "serve")
# Commands that build or check a project without its own code when its folder is not trusted
# (simulate refuses instead: generator/rules/__init__.py).
NOTED_COMMANDS = ("build", "png", "preview", "verify", "watch", "tts", "serve")
# Commands that, with no game named, act on the project the designer stands in (a folder
# holding a game data file, generator/core/folders.py), and on every built-in game elsewhere.
HERE_COMMANDS = ("build", "verify", "png", "preview", "watch", "serve")


def run() -> int:
    """The ``pnp`` command and ``python -m generator``: ``main`` in a process that ends with
    it. Why ``gc.freeze``: everything imported so far lives until the end, so the garbage
    collector's passes during a build need not walk it again and again (forked workers then
    also leave those pages shared); and at exit the interpreter frees objects by reference
    count instead of one last walk over every object, about 0.1 s of a build's wall time.
    ``main`` itself leaves the collector alone: tests call it thousands of times."""

    gc.freeze()
    try:
        return main()
    finally:
        sys.stdout.flush()
        gc.freeze()


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        validate(args)
        if args.command in HERE_COMMANDS and not args.games:  # in a project: that project
            args.games = app.here()
        if args.command in KIT_COMMANDS and args.out is None:  # a project's output/, or output/
            args.out = str(app.output_folder(getattr(args, "games", [])))
        named = getattr(args, "games", [])
        with (app.trusting(named) if getattr(args, "trust", False) else contextlib.nullcontext(),
              collector_eased() if args.command == "build" else contextlib.nullcontext()):
            if args.command in NOTED_COMMANDS:  # what an untrusted project skips: said once
                for note in app.untrusted_notes(named, getattr(args, "lang", "en")):
                    print(f"note: {note}", file=sys.stderr)
            return int(args.func(args))
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (InputError, DataError, CompositionError, ForwardedError,
            OSError) as exc:  # OSError: an output that cannot be written (read-only, full...)
        text, code = reported(exc) or (str(exc), 1)
        print(f"error: {text}", file=sys.stderr)
        return code
    except KeyboardInterrupt as exc:  # a simulation's says which game it stopped in
        print("interrupted" + (f": {exc}" if str(exc) else ""), file=sys.stderr)
        return 130
    except MemoryError:
        pass  # reported below: out of this clause the failed build's frames, and all they
        # held, are let go, so printing the line cannot run out of memory again
    text, code = reported(MemoryError()) or ("out of memory", 1)
    print(f"error: {text}", file=sys.stderr)
    return code
