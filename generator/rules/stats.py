"""The statistics behind a simulation report: confidence intervals and a seat-fairness test.

A win rate read off 1000 random playouts is an estimate, and a designer deciding whether to
rebalance a seat needs to know how far to trust it. Everything here is a small pure function of
counts (no numpy or scipy: the project keeps its dependencies few), so it can be checked by hand
and property-tested.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal: a two-sided 95 % interval
ALPHA = 0.05             # significance level of the seat test, matching the 95 % intervals
MIN_EXPECTED = 5.0       # the usual rule for trusting the chi-square approximation


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``successes`` out of ``n`` trials.

    With p = successes / n, the interval is::

        (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) / (1 + z²/n)

    (E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
    J. Am. Stat. Assoc. 22 (1927) 209-212; recommended over the textbook p ± z·√(p(1-p)/n) by
    Brown, Cai and DasGupta, "Interval estimation for a binomial proportion", Statistical
    Science 16 (2001) 101-133). Unlike that textbook (Wald) interval it never leaves [0, 1] and
    does not collapse to a zero-width interval at 0 or n successes, which matters here: a seat
    that won none of 10 games may still win up to 28 % of games in the long run.

    ``successes`` may be fractional (a shared first place counts as a part win for each seat in
    it); the formula is continuous in p, so that is a fair approximation. With ``n == 0`` nothing
    is known and the interval is the whole of [0, 1].
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    scale = 1 + z2 / n
    low, high = (centre - spread) / scale, (centre + spread) / scale
    # Exact at the ends (rounding would otherwise leave e.g. 1e-17 for 0 successes).
    return (0.0 if successes == 0 else max(0.0, low)), (1.0 if successes == n else min(1.0, high))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``values`` with a 95 % interval ``mean ± z·s/√n`` (normal approximation, close
    to Student's t from about 30 games on; simulations run hundreds). With fewer than two values
    the spread is unknown and the interval is the mean itself."""
    if not values:
        raise ValueError("mean_interval needs at least one value")
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` (a whole number) degrees of freedom.

    Closed forms of the regularised upper incomplete gamma function Q(df/2, x/2) (Abramowitz
    and Stegun 26.4.4 and 26.4.5): for even df, e^(-x/2)·Σ_{i<df/2} (x/2)^i / i!; for odd df,
    erfc(√(x/2)) + e^(-x/2)·Σ_{i=1}^{(df-1)/2} (x/2)^(i-1/2) / Γ(i+1/2).
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)  # i = 1
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= half / (i - 0.5)
        total += math.exp(-half) * term
    return min(1.0, total)


@dataclass(frozen=True)
class SeatTest:
    """Pearson's chi-square test of seat wins against "every seat equally likely to win".

    ``verdict`` is one of ``"noise"`` (no evidence at 5 % that seats differ), ``"significant"``,
    ``"too few"`` (under 5 expected wins a seat: the approximation is not to be trusted) and
    ``"no seats"`` (fewer than two seats)."""

    verdict: str
    wins: float = 0.0          # games won (shared first places split between their seats)
    statistic: float = 0.0
    df: int = 0
    p_value: float = 1.0
    best: int = -1             # seat (0-based) with the most wins; -1 when not tested
    worst: int = -1


def seat_test(seat_wins: Sequence[float], alpha: float = ALPHA) -> SeatTest:
    """Test whether the seats' wins differ by more than chance would explain.

    Only won games count (draws and stalls favour no seat). Why chi-square rather than "do the
    intervals overlap": overlapping 95 % intervals are common even when two rates differ
    significantly, and with several seats pairwise comparisons multiply the false alarms; one
    goodness-of-fit test over all seats answers the designer's actual question, "is any seat
    favoured?", at the stated 5 % level.
    """
    k = len(seat_wins)
    wins = float(sum(seat_wins))
    if k < 2:
        return SeatTest("no seats", wins)
    expected = wins / k
    if expected < MIN_EXPECTED:
        return SeatTest("too few", wins)
    statistic = sum((w - expected) ** 2 / expected for w in seat_wins)
    p_value = chi2_sf(statistic, k - 1)
    best = max(range(k), key=lambda s: (seat_wins[s], -s))
    worst = min(range(k), key=lambda s: (seat_wins[s], s))
    verdict = "significant" if p_value < alpha else "noise"
    return SeatTest(verdict, wins, statistic, k - 1, p_value, best, worst)


def percent(value: float) -> str:
    """A proportion as a percentage with one decimal, the way the report prints rates."""
    return f"{100 * value:.1f} %"


def rate_with_interval(successes: float, n: int) -> str:
    """``36.2 % (33.3-39.2 %)``: a rate and its 95 % Wilson interval."""
    low, high = wilson_interval(successes, n)
    rate = successes / n if n else 0.0
    return f"{percent(rate)} ({100 * low:.1f}-{100 * high:.1f} %)"


def p_text(p_value: float) -> str:
    """A p-value the way a reader expects it: small ones as ``p < 0.001``."""
    return "p < 0.001" if p_value < 0.001 else f"p = {p_value:.3f}"


def describe_seats(test: SeatTest, n: int) -> str:
    """The report's sentence about seat differences at ``n`` games (95 %)."""
    level = f"at n={n} (95 %)"
    if test.verdict == "no seats":
        return "one seat: nothing to compare"
    if test.verdict == "too few":
        if test.wins == 0:
            return "no game was won, so the seats cannot be compared"
        return (f"too few won games ({test.wins:g}) to compare seats {level}: "
                f"play more games")
    detail = f"chi-square {test.statistic:.2f} on {test.df} df, {p_text(test.p_value)}"
    if test.verdict == "noise":
        return f"seat differences are within noise {level}: {detail}"
    return (f"seat {test.best + 1} wins more often (seat {test.worst + 1} least): "
            f"the seat difference is significant {level}: {detail}")


@dataclass(frozen=True)
class FairShare:
    """One seat's share of the won games against the fair share ``1/players``: ``side`` is
    ``"above"`` or ``"below"`` when the 95 % Wilson interval excludes the fair share, else
    ``"within"``."""

    seat: int       # 0-based
    wins: float
    won: int        # games won by anyone: draws and stalls favour no seat
    low: float
    high: float
    side: str

    @property
    def rate(self) -> float:
        return self.wins / self.won if self.won else 0.0


def fair_shares(seat_wins: Sequence[float]) -> list[FairShare]:
    """Each seat's share of the won games, with its 95 % Wilson interval, against the fair
    share 1/players. Why of the won games, not of all games: a game of many draws would
    otherwise put every seat "below" a share no seat could reach. (With several seats one of
    them may fall outside by chance now and then; ``seat_test`` is the one test over all
    seats, and the report prints both.)"""
    players = len(seat_wins)
    won = round(sum(seat_wins))
    if players < 2 or won == 0:
        return []
    fair = 1 / players
    out = []
    for seat, wins in enumerate(seat_wins):
        low, high = wilson_interval(min(wins, won), won)
        side = "above" if low > fair else ("below" if high < fair else "within")
        out.append(FairShare(seat, wins, won, low, high, side))
    return out


def describe_fair_shares(shares: Sequence[FairShare]) -> list[str]:
    """The report's plain words about ``fair_shares``: one line per seat whose interval
    excludes the fair share, or one line saying every interval includes it (the words are
    templates/messages/<lang>.yaml's ``balance.*``)."""
    from generator.data.translation.i18n import message

    if not shares:
        return []
    fair = percent(1 / len(shares))
    lines = [message(f"balance.fair_{share.side}", seat=share.seat + 1,
                     rate=percent(share.rate), low=f"{100 * share.low:.1f}",
                     high=f"{100 * share.high:.1f}", fair=fair, won=share.won)
             for share in shares if share.side != "within"]
    return lines or [message("balance.fair_within", fair=fair, won=shares[0].won)]


@dataclass(frozen=True)
class Spread:
    """Mean and standard deviation of a count, from its sums (no list of every step kept)."""

    n: int
    mean: float
    sd: float
    most: int


def spread(n: int, total: int, squares: int, most: int) -> Spread:
    """``Spread`` of ``n`` values with sum ``total`` and sum of squares ``squares`` (the
    sample standard deviation; 0 for fewer than two values)."""
    if n == 0:
        return Spread(0, 0.0, 0.0, 0)
    mean = total / n
    var = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
    return Spread(n, mean, math.sqrt(max(0.0, var)), most)
