"""Command line: ``python -m generator build|png|verify|simulate|list``.

Exit status: 0 on success, 2 for bad input (the message names file, line and field), 1 for
anything else. Bad input never prints a traceback.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import paths
from .build import BuildOptions, build_pdf, verify
from .data import game_ids, load_game
from .errors import CompositionError, DataError
from .layout.sheet import LayoutError
from .layout.sizes import PAPER_SIZES
from .progress import track


def _games(selected: Sequence[str]) -> list[str]:
    return list(selected) if selected else game_ids()


def _options(args: argparse.Namespace) -> BuildOptions:
    return BuildOptions(paper=args.paper, theme=args.theme or None, ink_saver=args.ink_saver,
                        margin=args.margin, gap=args.gap, bleed=args.bleed, flip=args.flip,
                        back_dx=args.back_dx, back_dy=args.back_dy, force=args.force,
                        layout=args.layout,
                        out_dir=Path(args.out))


def cmd_build(args: argparse.Namespace) -> int:
    opts = _options(args)
    games = _games(args.games)
    for game_id in track(games, "building", len(games)):
        target, pages = build_pdf(game_id, opts)
        print(f"{game_id}: {pages} pages -> {target}")
    return 0


def cmd_preview(args: argparse.Namespace) -> int:
    from .preview import write_preview

    target = write_preview(_options(args), n_games=args.n, games_wanted=args.games or None)
    print(f"preview -> {target}")
    return 0


def cmd_png(args: argparse.Namespace) -> int:
    from .export import export_pngs

    opts = _options(args)
    for game_id in _games(args.games):
        folder, count = export_pngs(game_id, opts, dpi=args.dpi, jobs=args.jobs,
                                    preset=args.preset)
        print(f"{game_id}: {count} PNGs ({args.preset}) -> {folder}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Composition (is the set right?) then pre-flight (will it print right?). Pre-flight
    problems are warnings unless --strict."""
    from .preflight.report import preflight

    failed = 0
    opts = BuildOptions(paper=args.paper, flip=args.flip)
    for game_id in _games(args.games):
        game = load_game(game_id)
        findings = verify(game) + preflight(game, opts)
        bad = sum(not f.ok and (not f.warn or args.strict) for f in findings)
        warned = sum(not f.ok and f.warn for f in findings)
        failed += bad
        status = f"{bad} FAILED" if bad else ("OK" if not warned else f"OK, {warned} warnings")
        print(f"{game.title} ({game.id}): {status}")
        for finding in findings:
            print(finding.line())
    return 1 if failed else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from . import rules, simulate

    for game_id in _games(args.games):
        game = load_game(game_id)
        module = rules.load(game.rules)
        players_list = [args.players] if args.players else list(range(game.players[0],
                                                                        game.players[1] + 1))
        for players in players_list:
            runs = simulate.run_variants(module, game.title, game.data, players, n=args.n,
                                         seed=args.seed, jobs=args.jobs, policy=args.policy)
            if not runs:
                print(f"== {game.title}, {players} players: not a player count of this game ==")
            for suffix, report in runs:
                print(f"== {report.game}, {players} players ==")
                print(simulate.format_report(report))
                chart = (Path(args.out) / game.id /
                         f"simulation{suffix}-{players}p-{args.policy}.png")
                simulate.write_chart(report, chart)
                print(f"chart -> {chart}")
    return 0


def cmd_calibration(args: argparse.Namespace) -> int:
    from .build import write_calibration

    target = Path(args.out) / "calibration" / f"calibration-{args.paper}-{args.flip}.pdf"
    write_calibration(target, BuildOptions(paper=args.paper, flip=args.flip))
    print(f"duplex calibration sheet -> {target}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    for game_id in game_ids():
        game = load_game(game_id)
        parts = ", ".join(f"{c.name} ({c.total})" for c in game.components)
        print(f"{game.id}: {game.title}, {game.players[0]}-{game.players[1]} players: {parts}")
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m generator",
                                 description="Print-and-play kits from game data files.")
    sub = ap.add_subparsers(dest="command", required=True)

    def layout_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("games", nargs="*", help="game ids (default: every game)")
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
        p.add_argument("--out", default=str(paths.OUTPUT), help="output folder")

    build = sub.add_parser("build", help="build PDF kits into output/<id>/<id>.pdf")
    layout_args(build)
    build.set_defaults(func=cmd_build)

    preview = sub.add_parser("preview", help="HTML gallery of every game: output/preview/")
    layout_args(preview)
    preview.add_argument("--n", type=int, default=200, help="simulated games per set-up")
    preview.set_defaults(func=cmd_preview)

    png = sub.add_parser("png", help="one PNG per face into output/<id>/png/")
    layout_args(png)
    png.add_argument("--dpi", type=int, default=None, help="default: the preset's (300)")
    png.add_argument("--preset", choices=("default", "tgc", "mpc"), default="default",
                     help="print-shop image format: tgc = The Game Crafter, mpc = "
                          "MakePlayingCards")
    png.add_argument("--jobs", type=int, default=2)
    png.set_defaults(func=cmd_png)

    ver = sub.add_parser("verify", help="each game's composition and pre-flight report")
    ver.add_argument("games", nargs="*")
    ver.add_argument("--strict", action="store_true",
                     help="pre-flight warnings fail too (exit 1)")
    ver.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    ver.add_argument("--flip", choices=("long", "short"), default="long")
    ver.set_defaults(func=cmd_verify)

    sim = sub.add_parser("simulate", help="play seeded games and report")
    sim.add_argument("games", nargs="*")
    sim.add_argument("--n", type=int, default=1000)
    sim.add_argument("--players", type=int, default=0)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--jobs", type=int, default=2)
    sim.add_argument("--policy", choices=("random", "greedy"), default="random")
    sim.add_argument("--out", default=str(paths.OUTPUT))
    sim.set_defaults(func=cmd_simulate)

    cal = sub.add_parser("calibration", help="a duplex calibration sheet (2 pages)")
    cal.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    cal.add_argument("--flip", choices=("long", "short"), default="long")
    cal.add_argument("--out", default=str(paths.OUTPUT))
    cal.set_defaults(func=cmd_calibration)

    lst = sub.add_parser("list", help="list the games and their components")
    lst.set_defaults(func=cmd_list)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DataError as exc:
        print(f"error: {exc.message()}", file=sys.stderr)
        return 2
    except (CompositionError, LayoutError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 1
