"""`make preview`: a static HTML page that proves each kit before it is printed.

For every game: every distinct face of every component (front beside back), rendered at print
resolution by the PNG export and shown small (click one to see it at 300 dpi); a link to the
PDF of each layout that has been built; the verify report as a table (with the answers to
the data file's ``deal:`` questions, generator/rules/deal.py); and a simulation
summary (the balance report of ``pnp simulate --compare``: random against greedy) with its
chart. A game without a play engine (no ``rules:`` module) gets everything
but the simulation, which says so in one line. Written to ``output/preview/index.html``; a
progress bar on a terminal says which game is being built (it takes a while)."""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from generator import rules
from generator.core import context, paths
from generator.core.atomic import atomic_file, output_lock
from generator.core.findings import Finding
from generator.core.progress import Progress
from generator.data import game_ids, load_game
from generator.data.translation import i18n
from generator.orchestration.build import build_pdf
from generator.orchestration.composition import verify
from generator.orchestration.export import PRESETS, export_pngs
from generator.orchestration.naming import output_pdf
from generator.orchestration.options import BuildOptions
from generator.orchestration.preflight.report import preflight
from generator.rules import deal

LAYOUTS = ("sheets", "gutterfold", "single")


def _href(target: Path, folder: Path) -> str:
    return Path(os.path.relpath(target, folder)).as_posix()


def _faces(game: Any, png_folder: Path, folder: Path) -> list[dict[str, Any]]:
    """Each component with every distinct piece the export wrote, front beside back,
    captioned with its label and copies, as the export's ``manifest.json`` pairs them (a
    deck's one back shows beside each of its fronts)."""
    rows: list[dict[str, Any]] = []
    manifest = png_folder / "manifest.json"
    if manifest.is_file():
        rows = json.loads(manifest.read_text(encoding="utf-8")).get("files", [])
    out = []
    for comp in game.components:
        faces = []
        for row in rows:
            if row.get("component") != comp.id or not row.get("file"):
                continue
            front = png_folder / str(row["file"])
            back = png_folder / str(row["back"]) if row.get("back") else None
            faces.append({"front": _href(front, folder),
                          "back": _href(back, folder) if back and back.exists() else None,
                          "name": str(row.get("label") or front.stem),
                          "copies": int(row.get("copies") or 1)})
        out.append({"name": comp.name, "count": comp.total, "kind": comp.kind, "faces": faces})
    return out


def _pdfs(game_id: str, opts: BuildOptions, folder: Path) -> list[dict[str, str]]:
    """The PDF of every layout that exists, the one just built first."""
    found = []
    for layout in sorted(LAYOUTS, key=lambda name: name != opts.layout):
        pdf = output_pdf(game_id, replace(opts, layout=layout))
        if pdf.exists():
            found.append({"layout": layout, "href": _href(pdf, folder), "name": pdf.name})
    return found


def _report(findings: list[Finding]) -> list[dict[str, str]]:
    return [{"status": "ok" if f.ok else ("warn" if f.warn else "fail"), "basis": f.basis,
             "check": f.check, "detail": f.detail, "where": f.where if not f.ok else ""}
            for f in findings]


def simulation(game_id: str, folder: Path, n: int, lang: str, jobs: int = 2
               ) -> tuple[str, list[str]]:
    """The balance report of random against greedy play for every player count the game
    declares (a game for 2-4 is played at 3 too: a fault or an imbalance at 3 players is
    as real as at 2 or 4), and the names of its charts, written into ``folder`` (the
    preview's, the studio's)."""
    from generator.orchestration import simulate, simulate_chart

    game = load_game(game_id)
    module = rules.engine(game, skip_untrusted=True)
    if module is None:  # no rules module, or a project's own not trusted: said why
        return simulate.unplayable(game, lang) or simulate.no_engine(game.id), []
    texts, charts = [], []
    for players in range(game.players[0], game.players[1] + 1):
        runs = simulate.run_variants(module, game.title, game.data, players, n=n, seed=1,
                                     jobs=jobs)
        greedy = simulate.run_variants(module, game.title, game.data, players, n=n, seed=1,
                                       jobs=jobs, policy="greedy")
        for (suffix, report), (_, other) in zip(runs, greedy, strict=True):
            texts.append(f"{report.game}, {players} players:\n{simulate.format_report(report)}"
                         f"\n{simulate.compare_policies(report, other)}")
            chart = folder / f"{game.id}-sim{suffix}-{players}p.png"
            simulate_chart.write_chart(report, chart)
            both = folder / f"{game.id}-sim{suffix}-{players}p-compare.png"
            simulate_chart.write_comparison_chart(report, other, both)
            charts += [chart.name, both.name]
    return "\n\n".join(texts), charts


def write_preview(opts: BuildOptions, n_games: int = 200, games_wanted: list[str] | None = None
                  ) -> Path:
    """Write ``<out>/preview[.lang]/index.html`` (and its charts), holding that folder's lock
    from the start: the folder is entered, never followed (a link there is refused before any
    game is built: generator/core/atomic.py), and the page is replaced whole."""
    folder = opts.out_dir / ("preview" + ("" if opts.lang == i18n.SOURCE else f".{opts.lang}"))
    with output_lock(folder):
        return _write_preview(opts, folder, n_games, games_wanted)


def _write_preview(opts: BuildOptions, folder: Path, n_games: int,
                   games_wanted: list[str] | None) -> Path:
    wanted = games_wanted or game_ids()
    bar = Progress("preview", len(wanted))
    games = []
    try:
        for game_id in wanted:
            with i18n.collect() as missing, context.building():
                game = load_game(game_id)
                with i18n.session(game, opts.lang):
                    findings = verify(game) + preflight(game, opts) + deal.findings(game)
            findings += i18n.findings(missing, opts.lang)  # texts left in English
            _, pages = build_pdf(game_id, opts)
            png_folder, _ = export_pngs(game_id, opts)
            simulation_text, charts = simulation(game_id, folder, n_games, opts.lang)
            games.append({
                "id": game.id, "title": game.title, "credit": game.credit, "pages": pages,
                "players": f"{game.players[0]}-{game.players[1]}"
                if game.players[0] != game.players[1] else str(game.players[0]),
                "components": _faces(game, png_folder, folder),
                "pdfs": _pdfs(game.id, opts, folder),
                "verified": all(f.ok for f in findings),
                "report": _report(findings),
                "simulation": simulation_text, "charts": charts,
            })
            bar.step(game_id)
    finally:
        bar.close()
    env = Environment(loader=FileSystemLoader(str(paths.TEMPLATES / "preview")),
                      autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("index.html.j2").render(games=games, dpi=PRESETS["default"].dpi)
    target = folder / "index.html"
    with atomic_file(target) as out:
        out.write(html.encode("utf-8"))
    return target
