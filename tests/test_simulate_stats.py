"""The simulation statistics: Wilson intervals (properties and published values), the chi-square
tail, and the seat test's verdicts on hand-built counts."""
from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.rules.stats import (
    chi2_sf,
    describe_seats,
    mean_interval,
    rate_with_interval,
    seat_test,
    wilson_interval,
)


@st.composite
def counts(draw: st.DrawFn, max_n: int = 100_000) -> tuple[int, int]:
    n = draw(st.integers(1, max_n))
    return draw(st.integers(0, n)), n


@given(counts())
def test_wilson_bounds_lie_in_unit_interval_and_contain_the_estimate(case):
    k, n = case
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


@given(counts(max_n=10_000), st.integers(2, 10))
def test_wilson_interval_narrows_with_more_games_at_the_same_rate(case, factor):
    k, n = case
    low, high = wilson_interval(k, n)
    low2, high2 = wilson_interval(k * factor, n * factor)
    assert high2 - low2 < high - low


@given(counts())
def test_wilson_interval_is_symmetric_under_swapping_wins_and_losses(case):
    k, n = case
    low, high = wilson_interval(k, n)
    low2, high2 = wilson_interval(n - k, n)
    assert math.isclose(low, 1 - high2, abs_tol=1e-12)
    assert math.isclose(high, 1 - low2, abs_tol=1e-12)


@given(st.integers(1, 10_000), st.floats(0, 1))
def test_wilson_accepts_fractional_wins_from_shared_first_places(n, share):
    low, high = wilson_interval(share * n, n)
    assert 0.0 <= low <= high <= 1.0


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.278),      # Brown, Cai & DasGupta (2001); the "rule of three" is 0.3
    (5, 10, 0.237, 0.763),
    (10, 10, 0.722, 1.0),
    (1, 10, 0.018, 0.404),
    (362, 1000, 0.333, 0.392),
    (50, 100, 0.4038, 0.5962),   # the textbook value: p = 0.5, z = 1.96, n = 100
])
def test_wilson_known_values(k, n, low, high):
    got = wilson_interval(k, n)
    assert got == pytest.approx((low, high), abs=5e-4)
    digits = len(str(low).split(".")[1])
    assert [round(v, digits) for v in got] == pytest.approx([low, high], abs=10 ** -digits)


def test_wilson_refuses_impossible_counts_and_knows_nothing_at_zero_games():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for k, n in ((-1, 10), (11, 10)):
        with pytest.raises(ValueError):
            wilson_interval(k, n)


@pytest.mark.parametrize(("df", "critical"), [
    (1, 3.841459), (2, 5.991465), (3, 7.814728), (4, 9.487729), (5, 11.070498),
    (6, 12.591587), (7, 14.067140),
])
def test_chi2_tail_at_the_published_5_percent_critical_values(df, critical):
    assert chi2_sf(critical, df) == pytest.approx(0.05, abs=1e-6)


def test_chi2_tail_edges():
    assert chi2_sf(0.0, 3) == 1.0
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1))
    assert chi2_sf(1000.0, 1) < 1e-100
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


@given(st.floats(0.01, 200), st.integers(1, 12))
def test_chi2_tail_is_a_probability_falling_with_x(x, df):
    p = chi2_sf(x, df)
    assert 0.0 <= p <= 1.0
    assert chi2_sf(x * 1.5, df) <= p + 1e-12  # rounding only, where the tail is nearly 1


def test_seat_test_even_split_is_noise():
    test = seat_test([505.0, 495.0])
    assert test.verdict == "noise" and test.df == 1
    assert test.statistic == pytest.approx(0.1)
    text = describe_seats(test, 1000)
    assert text.startswith("seat differences are within noise at n=1000 (95 %)")


def test_seat_test_lopsided_split_names_the_favoured_seat():
    test = seat_test([300.0, 250.0, 450.0])
    assert test.verdict == "significant" and (test.best, test.worst) == (2, 1)
    assert test.p_value < 0.001
    text = describe_seats(test, 1000)
    assert text.startswith("seat 3 wins more often (seat 2 least)")
    assert "significant at n=1000 (95 %)" in text and "p < 0.001" in text


def test_seat_test_just_either_side_of_five_percent():
    # Two seats, 1000 wins: 530 vs 470 gives chi-square 3.60 (p 0.058), 531 vs 469 gives
    # 3.844, just over the 3.841 critical value (p 0.0499).
    assert seat_test([530.0, 470.0]).verdict == "noise"
    assert seat_test([531.0, 469.0]).verdict == "significant"


def test_seat_test_refuses_to_judge_on_too_few_wins():
    assert seat_test([3.0, 2.0, 1.0]).verdict == "too few"
    assert "too few won games (6)" in describe_seats(seat_test([3.0, 2.0, 1.0]), 500)
    assert describe_seats(seat_test([0.0, 0.0]), 50).startswith("no game was won")
    assert seat_test([40.0]).verdict == "no seats"


def test_rate_with_interval_text_and_mean_interval():
    assert rate_with_interval(362, 1000) == "36.2 % (33.3-39.2 %)"
    assert rate_with_interval(0, 10) == "0.0 % (0.0-27.8 %)"
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and low < mean < high and high - mean == pytest.approx(mean - low)
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


# -- fair shares and their words -------------------------------------------------------------

def test_a_seat_whose_interval_excludes_the_fair_share_is_named_in_plain_words():
    from generator.rules.stats import describe_fair_shares, fair_shares

    shares = fair_shares([450, 250, 300])  # 1000 won games among 3 seats: fair is 33.3 %
    assert [s.side for s in shares] == ["above", "below", "below"]
    assert shares[0].rate == 0.45 and shares[0].low > 1 / 3
    assert describe_fair_shares(shares) == [
        "seat 1 wins more than its fair share: 45.0 % of the 1000 won games "
        "(95 % interval 41.9-48.1 %), a fair share being 33.3 %",
        "seat 2 wins less than its fair share: 25.0 % of the 1000 won games "
        "(95 % interval 22.4-27.8 %), a fair share being 33.3 %",
        "seat 3 wins less than its fair share: 30.0 % of the 1000 won games "
        "(95 % interval 27.2-32.9 %), a fair share being 33.3 %"]


def test_fair_shares_within_noise_say_so_once_and_ignore_draws():
    from generator.rules.stats import describe_fair_shares, fair_shares

    shares = fair_shares([52, 48])  # e.g. 100 won games out of 1000 played (900 draws)
    assert [s.side for s in shares] == ["within", "within"]
    assert describe_fair_shares(shares) == [
        "every seat's 95 % interval includes its fair share (50.0 % of the 100 won games)"]
    assert fair_shares([0, 0]) == [] and fair_shares([7]) == []


def test_fair_share_words_follow_the_language():
    from generator.data.translation import i18n
    from generator.rules.stats import describe_fair_shares, fair_shares

    with i18n.session(None, "fr"):
        [line, *_] = describe_fair_shares(fair_shares([450, 250, 300]))
    assert line.startswith("le siège 1 gagne plus que sa juste part\u00a0: 45.0 %")


def test_spread_of_a_count_from_its_sums():
    from generator.rules.stats import spread

    values = [2, 4, 4, 4, 5, 5, 7, 9]
    got = spread(len(values), sum(values), sum(v * v for v in values), max(values))
    assert got.mean == 5 and got.sd == pytest.approx(statistics.stdev(values)) and got.most == 9
    assert spread(0, 0, 0, 0).n == 0 and spread(1, 3, 9, 3).sd == 0
