"""The simulator across games: one report per board, refused player counts, stable replays."""
from __future__ import annotations

from generator import rules, simulate
from generator.data import load_game


def test_run_variants_gives_one_report_per_board_and_skips_refused_counts():
    game = load_game("movement-game")
    module = rules.load(game.rules)
    runs = simulate.run_variants(module, game.title, game.data, 2, n=4, seed=3, jobs=1,
                                 max_turns=40)
    boards = [b["name"] for b in game.data["tables"]["boards"]]
    assert [suffix for suffix, _ in runs] == [f"-{b.lower()}" for b in boards]
    assert [r.game for _, r in runs] == [f"{game.title} ({b})" for b in boards]
    assert all(r.n == 4 and len(r.results) == 4 for _, r in runs)
    assert simulate.run_variants(module, game.title, game.data, 3, n=4) == []


def test_single_setup_games_have_no_suffix_and_report_points():
    game = load_game("monster-day")
    module = rules.load(game.rules)
    [(suffix, report)] = simulate.run_variants(module, game.title, game.data, 2, n=30, seed=1)
    assert suffix == "" and report.points and report.game == "Monster Day"
    text = simulate.format_report(report)
    assert "games: 30" in text and "mean score: seat 1" in text
    assert sum(report.mean_scores()) <= 5
