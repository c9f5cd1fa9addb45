"""`make preview`: a static HTML gallery of every game (thumbnails with counts, the verify
report, a simulation summary and its chart), written to output/preview/index.html."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from . import paths, rules
from .build import BuildOptions, build_pdf, game_theme, render_faces, verify
from .data import game_ids, load_game
from .export import slug
from .render.png import write_png

THUMB_DPI = 60


def _thumbs(game_id: str, opts: BuildOptions, folder: Path) -> list[dict[str, Any]]:
    game = load_game(game_id)
    theme = game_theme(game, opts)
    out = []
    for comp in game.components:
        fronts, backs = render_faces(game, comp, theme, opts)
        name = f"{game.id}-{slug(comp.id)}"
        front = write_png(fronts[0], folder / f"{name}.png", THUMB_DPI, supersample=2)
        back = (write_png(backs[0], folder / f"{name}-back.png", THUMB_DPI, supersample=2)
                if backs else None)
        out.append({"name": comp.name, "count": comp.total, "thumb": front.name,
                    "back": back.name if back else None})
    return out


def _simulation(game_id: str, folder: Path, n: int) -> tuple[str, list[str]]:
    from . import simulate

    game = load_game(game_id)
    module = rules.load(game.rules)
    texts, charts = [], []
    for players in sorted({game.players[0], game.players[1]}):
        for suffix, report in simulate.run_variants(module, game.title, game.data, players,
                                                    n=n, seed=1, jobs=2):
            texts.append(f"{report.game}, {players} players:\n{simulate.format_report(report)}")
            chart = folder / f"{game.id}-sim{suffix}-{players}p.png"
            simulate.write_chart(report, chart)
            charts.append(chart.name)
    return "\n\n".join(texts), charts


def write_preview(opts: BuildOptions, n_games: int = 200, games_wanted: list[str] | None = None
                  ) -> Path:
    folder = opts.out_dir / "preview"
    folder.mkdir(parents=True, exist_ok=True)
    games = []
    for game_id in games_wanted or game_ids():
        game = load_game(game_id)
        findings = verify(game)
        _, pages = build_pdf(game_id, opts)
        simulation, charts = _simulation(game_id, folder, n_games)
        games.append({
            "id": game.id, "title": game.title, "credit": game.credit, "pages": pages,
            "players": f"{game.players[0]}-{game.players[1]}" if game.players[0] != game.players[1]
            else str(game.players[0]),
            "components": _thumbs(game_id, opts, folder),
            "verified": all(f.ok for f in findings),
            "report": "\n".join(f.line() for f in findings),
            "simulation": simulation, "charts": charts,
        })
    env = Environment(loader=FileSystemLoader(str(paths.TEMPLATES / "preview")),
                      autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("index.html.j2").render(games=games)
    target = folder / "index.html"
    target.write_text(html, encoding="utf-8")
    return target
