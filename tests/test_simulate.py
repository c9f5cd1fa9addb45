"""The simulator across games: one report per board, refused player counts, stable replays;
the report's intervals and seat verdict on hand-built results, and the chart drawn from them."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from generator import rules
from generator.data import load_game
from generator.orchestration import simulate, simulate_chart
from generator.rules import play


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
    assert "games: 30" in text and "mean score (95 % interval): seat 1" in text
    assert sum(report.mean_scores()) <= 5


def _report(seat_wins: list[int], lengths: list[int] | None = None, stalls: int = 0,
            points: bool = False) -> simulate.Report:
    """A report built by hand: ``seat_wins[s]`` games won by seat s, then ``stalls`` stalls."""
    players = len(seat_wins)
    results = []
    for seat, wins in enumerate(seat_wins):
        scores = tuple(float(s == seat) for s in range(players))
        results += [simulate.GameResult(0, "win", scores, (seat,))] * wins
    results += [simulate.GameResult(0, "stall", (0.0,) * players, ())] * stalls
    lengths = lengths or [20 + i % 7 for i in range(len(results))]
    results = [replace(r, turns=t) for r, t in zip(results, lengths, strict=True)]
    return simulate.Report("Hand-built", players, "random", len(results), 1, results,
                           points=points)


WILSON = re.compile(r"seat (\d): (\d+\.\d) % \((\d+\.\d)-(\d+\.\d) %\)")


def test_report_prints_wilson_intervals_and_says_when_seats_are_within_noise():
    text = simulate.format_report(_report([362, 338, 300]))
    assert "seat 1: 36.2 % (33.3-39.2 %)" in text
    assert len(WILSON.findall(text)) == 3
    assert "draws: 0.0 % (0.0-0.4 %), stalls: 0.0 % (0.0-0.4 %)" in text
    assert "seat differences are within noise at n=1000 (95 %)" in text
    assert "significant" not in text


def test_report_names_the_favoured_seat_when_the_difference_is_significant():
    text = simulate.format_report(_report([250, 450, 300]))
    assert "seat 2 wins more often (seat 1 least)" in text
    assert "the seat difference is significant at n=1000 (95 %)" in text
    assert "within noise" not in text


def test_report_with_stalls_tests_seats_on_won_games_only():
    report = _report([40, 60], stalls=900)
    text = simulate.format_report(report)
    assert "stalls: 90.0 % (88.0-91.7 %)" in text
    # 40 vs 60 of the 100 won games: chi-square 4.00, p = 0.046, although the seats' rates
    # over all 1000 games (4.0 % and 6.0 %) have overlapping intervals.
    assert "seat 2 wins more often" in text and "p = 0.046" in text
    assert report.seat_test().wins == 100


def test_constant_length_is_said_in_words():
    text = simulate.format_report(_report([10, 10], lengths=[30] * 20))
    assert "length (turns): every game lasted 30 turns" in text
    assert "quartiles" not in text


def test_point_games_report_score_intervals():
    text = simulate.format_report(_report([60, 40], points=True))
    assert re.search(r"mean score \(95 % interval\): seat 1 0\.60 \(0\.\d\d-0\.\d\d\)", text)


def _pixels(path: Path) -> Image.Image:
    with Image.open(path) as image:
        return image.convert("RGB")


def test_chart_is_byte_identical_for_the_same_results(tmp_path):
    report = _report([362, 338, 300], points=True)
    first = simulate_chart.write_chart(report, tmp_path / "a.png").read_bytes()
    report.seconds = 12.5  # timing never reaches the picture
    assert simulate_chart.write_chart(report, tmp_path / "b.png").read_bytes() == first


def test_seeded_runs_draw_the_same_chart(tmp_path):
    game = load_game("moving-target")
    module = rules.load(game.rules)
    charts = []
    for jobs, name in ((1, "one.png"), (2, "two.png")):
        report = simulate.run(module, 2, n=40, seed=5, jobs=jobs, data=game.data)
        charts.append(simulate_chart.write_chart(report, tmp_path / name).read_bytes())
    assert charts[0] == charts[1]


def test_constant_length_chart_draws_no_histogram_bars(tmp_path):
    from generator.orchestration import simulate_chart as chart

    image = _pixels(simulate_chart.write_chart(_report([10, 10], lengths=[30] * 20),
                                               tmp_path / "c.png"))
    varied = _pixels(simulate_chart.write_chart(_report([10, 10]), tmp_path / "v.png"))
    base = chart.TOP + chart.PLOT_H - 3  # just above the histogram's x axis
    row = range(chart.LEFT_X + 2, chart.LEFT_X + chart.PANEL_W - 2)
    assert not any(image.getpixel((x, base)) == chart.BAR for x in row)
    assert any(varied.getpixel((x, base)) == chart.BAR for x in row)
    assert image.size == (chart.WIDTH, varied.size[1])


def test_win_rate_bars_carry_error_bars_from_the_wilson_interval(tmp_path):
    from generator.orchestration import simulate_chart as chart

    image = _pixels(simulate_chart.write_chart(_report([500, 500]), tmp_path / "w.png"))
    slot = chart.PANEL_W / 3  # two seats and the draw/stall bar
    middle = round(chart.RIGHT_X + slot / 2)
    top = chart.TOP
    # The error bar is a dark line through the bar's middle, reaching above the bar itself.
    column = [image.getpixel((middle, y)) for y in range(top, top + chart.PLOT_H)]
    assert any(pixel == chart.INK for pixel in column)


def test_nice_steps():
    from generator.orchestration.simulate_chart import nice_step

    assert nice_step(300) == 100
    assert nice_step(0.39) == 0.1
    assert nice_step(0.52) == 0.2
    assert nice_step(3, whole=True) == 1
    assert nice_step(76, max_ticks=6, whole=True) == 20


def test_cli_simulate_prints_the_intervals(tmp_path, capsys):
    from generator.frontends.cli import main

    code = main(["simulate", "moving-target", "--n", "60", "--players", "2", "--jobs", "1",
                 "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "seat win rate (95 % Wilson interval):" in out
    assert [int(s) for s, *_ in WILSON.findall(out)] == [1, 2]
    for _, rate, low, high in WILSON.findall(out):
        assert float(low) <= float(rate) <= float(high)
    assert "at n=60 (95 %)" in out
    assert (tmp_path / "moving-target" / "simulation-2p-random.png").exists()


# -- the balance report: fair shares, decisions, the turn limit, two policies ----------------

def test_report_adds_the_fair_share_verdict_and_the_turn_limit_after_the_old_lines():
    text = simulate.format_report(_report([250, 450, 300]))
    lines = text.splitlines()
    verdict = lines.index("seat 2 wins more than its fair share: 45.0 % of the 1000 won games "
                          "(95 % interval 41.9-48.1 %), a fair share being 33.3 %")
    assert verdict > next(k for k, line in enumerate(lines) if "significant" in line)
    assert "seat 1 wins less than its fair share: 25.0 %" in text
    assert lines[-1] == "turn limit: no game reached 500 turns"


def test_stalls_are_said_with_their_interval():
    text = simulate.format_report(_report([40, 60], stalls=900))
    assert ("turn limit: 900 of 1000 games reached 500 turns without ending, 90.0 % "
            "(88.0-91.7 %); the game may not always end") in text


def _seeded(policy: str) -> simulate.Report:
    game = load_game("moving-target")
    return simulate.run(rules.load(game.rules), 2, 12, seed=5, jobs=1, data=game.data,
                        game=game.title, policy=policy)


def test_a_seeded_run_counts_the_same_decisions_every_time():
    report = _seeded("random")
    again = _seeded("random")
    assert [r.choices for r in report.results] == [r.choices for r in again.results]
    choice = report.decisions()
    steps = report.steps()
    assert steps == sum(r.choices[0] for r in report.results) > choice.n > 0
    assert choice.most == max(r.choices[4] for r in report.results) > 1
    assert choice.mean > 1
    # Counting choices plays the same games: turns and winners as the plain loop's.
    plain = [play.play_one(rules.load("moving_target"), 2, play.game_seed(5, i), "random",
                           simulate.DEFAULT_MAX_TURNS, load_game("moving-target").data)
             for i in range(12)]
    assert [(r.turns, r.winners) for r in plain] == \
        [(r.turns, r.winners) for r in report.results]
    text = simulate.format_report(report)
    assert (f"decisions: {choice.n} of {steps} steps offered a choice "
            f"({100 * choice.n / steps:.1f} %); at a choice, {choice.mean:.1f} legal actions "
            f"on average (spread {choice.sd:.1f}, at most {choice.most})") in text


@pytest.mark.slow
def test_greedy_counts_its_choices_without_changing_its_games():
    report = _seeded("greedy")
    plain = [play.play_one(rules.load("moving_target"), 2, play.game_seed(5, i), "greedy",
                           simulate.DEFAULT_MAX_TURNS, load_game("moving-target").data)
             for i in range(12)]
    assert [(r.turns, r.winners, r.scores) for r in plain] == \
        [(r.turns, r.winners, r.scores) for r in report.results]
    assert report.decisions().n > 0


def test_two_policies_side_by_side():
    random_run, greedy_run = _seeded("random"), _seeded("greedy")
    text = simulate.compare_policies(random_run, greedy_run)
    lines = text.splitlines()
    assert lines[0] == ("random policy against greedy policy, 12 games each "
                        "(95 % intervals, random / greedy):")
    assert len(WILSON.findall(text)) == 2  # seat 1 and seat 2, each "rate (low-high)" twice
    assert lines[-1].startswith(("no seat's win rate differs", "seat "))
    assert any(line.startswith("  mean length (turns): ") for line in lines)


def test_compare_names_a_seat_whose_intervals_do_not_overlap():
    text = simulate.compare_policies(_report([800, 200]), _report([200, 800]))
    assert "seat 1 wins more often under the random policy" in text
    assert "seat 2 wins more often under the random policy" in text  # both hand-built random


def test_cli_simulate_compare_prints_both_policies(tmp_path, capsys):
    from generator.frontends.cli import main

    assert main(["simulate", "moving-target", "--n", "10", "--players", "2", "--jobs", "1",
                 "--compare", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "random policy against greedy policy, 10 games each" in out
    assert (tmp_path / "moving-target" / "simulation-2p-compare.png").exists()
    assert "every seat's 95 % interval includes its fair share" in out or \
        "than its fair share" in out


def test_comparison_chart_draws_both_policies_with_error_bars(tmp_path):
    from generator.orchestration import simulate_chart as chart

    first, second = _report([800, 200]), replace(_report([300, 700]), policy="greedy")
    target = chart.write_comparison_chart(first, second, tmp_path / "c.png")
    again = chart.write_comparison_chart(first, second, tmp_path / "d.png")
    assert target.read_bytes() == again.read_bytes()
    image = _pixels(target)
    slot = chart.PANEL_W / 4  # seat 1 random, seat 1 greedy, seat 2 random, seat 2 greedy
    for k, colour in enumerate([chart.SEAT, chart.BAR, chart.SEAT, chart.BAR]):
        middle = round(chart.LEFT_X + slot * (k + 0.5))
        column = [image.getpixel((middle, y)) for y in range(chart.TOP, chart.TOP + chart.PLOT_H)]
        assert colour in column and chart.INK in column  # the bar and its error bar


class _Rounds:
    """A hand-built engine of exactly ``TURNS`` turns of ``STEPS`` actions each: the length
    a report gives is known. ``on_after_last``: whether ``apply`` moves the turn counter on
    after the last turn too (the starter's habit) or stops it there (a game won mid-turn)."""

    TURNS, STEPS = 5, 3
    POINTS = False

    def __init__(self, on_after_last: bool) -> None:
        self.on_after_last = on_after_last

    def new_game(self, players, seed, data=None):
        from types import SimpleNamespace

        return SimpleNamespace(turn=1, step=0, done=False)

    def current_player(self, state):
        return state.step % 2

    def legal_actions(self, state):
        return [0, 1]

    def apply(self, state, action):
        state.step += 1
        if state.step % self.STEPS == 0:
            state.done = state.step == self.TURNS * self.STEPS
            if not state.done or self.on_after_last:
                state.turn += 1
        return state

    def clone(self, state):
        return state

    def is_over(self, state):
        return state.done

    def scores(self, state):
        return [1.0, 0.0]

    def outcome(self, state):
        return "win"

    def greedy_action(self, state):
        return 0


def test_length_is_the_turns_played_whether_or_not_the_counter_moves_on_after_the_last():
    for on_after_last in (True, False):
        engine = _Rounds(on_after_last)
        for policy in play.POLICIES:
            result = play.play_one(engine, 2, 7, policy, 100, None)
            assert result.turns == _Rounds.TURNS and result.outcome == "win"
    report = simulate.Report("rounds", 2, "random", 3, 1,
                             [play.play_one(_Rounds(True), 2, s, "random", 100, None)
                              for s in range(3)])
    assert "every game lasted 5 turns" in simulate.format_report(report)
    # a stall is as long as the turn limit, not one more
    stalled = play.play_one(_Rounds(True), 2, 7, "random", 2, None)
    assert stalled.outcome == "stall" and stalled.turns == 2
