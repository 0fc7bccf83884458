"""Confidence intervals for win rates, shared by the benchmark and the controller's live stats,
and the paired comparison of two solvers on the same games.

The Wilson score interval is used rather than the textbook normal interval because win rates
sit near 0 or 1 on easy levels and after few games, where the normal interval leaves [0, 1]
and covers the true rate far less often than it claims.

Two solvers played on the same seeds mostly win and lose the same games; only the games one
wins and the other loses say which is better. Comparing those (an exact sign test, McNemar's
test for paired outcomes) shows a difference with several times fewer games than comparing two
independent win rates.

The binomial test is summed exactly over whole numbers (``math.comb``), which needs no
statistics library and no tolerance for ties between equally likely counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt
from statistics import NormalDist


def wilson_interval(wins: int, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for a win rate of ``wins`` out of ``games``.

    With no games nothing is known, so the interval is (0, 1).
    """
    if games < 0 or not 0 <= wins <= games:
        raise ValueError(f"wins must lie between 0 and games: got {wins} wins in {games} games")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    if games == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = wins / games
    shrink = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / shrink
    half = z / shrink * sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    # The exact interval always holds the observed rate; the bounds keep rounding from pushing
    # an end past it (a low end of 1e-17 after no wins, say).
    return max(0.0, min(centre - half, rate)), min(1.0, max(centre + half, rate))


def format_win_rate(wins: int, games: int, confidence: float = 0.95) -> str:
    """A win rate as people quote it: ``41.24% [40.55, 41.92]`` (percent, interval in brackets)."""
    low, high = wilson_interval(wins, games, confidence)
    rate = wins / games if games else 0.0
    return f"{100 * rate:.2f}% [{100 * low:.2f}, {100 * high:.2f}]"


def binomial_test(successes: int, trials: int, rate: float | Fraction = Fraction(1, 2)) -> float:
    """Exact two-sided binomial test: if each trial succeeds with probability ``rate``, the
    chance of a success count no likelier than ``successes``. With the default rate of one half
    it is the sign test.

    Every count's probability is scaled to a whole number (``rate`` is read as the exact
    fraction it stores), so equally likely counts tie exactly; the work grows with ``trials``
    squared, which is quick up to a few thousand trials (the sign test's own sum is linear).
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(
            f"successes must lie between 0 and trials: got {successes} of {trials} trials"
        )
    exact_rate = Fraction(rate)
    if not 0 <= exact_rate <= 1:
        raise ValueError(f"the rate must lie between 0 and 1, not {rate}")
    if exact_rate == Fraction(1, 2):
        return _sign_test(successes, trials)
    hit, miss = exact_rate.numerator, exact_rate.denominator - exact_rate.numerator

    def weight(count: int) -> int:
        """The probability of ``count`` successes times ``denominator ** trials``."""
        # Whole numbers: no exponent is negative (typeshed cannot tell, and says Any).
        powers: int = hit**count * miss ** (trials - count)
        return comb(trials, count) * powers

    observed = weight(successes)
    no_likelier = sum(w for w in map(weight, range(trials + 1)) if w <= observed)
    scale: int = exact_rate.denominator**trials
    return no_likelier / scale


def _sign_test(successes: int, trials: int) -> float:
    """The binomial test at rate one half: the distribution is symmetric, so the counts no
    likelier than ``successes`` are the two tails beyond it, twice the smaller tail. Summed
    with each binomial coefficient made from the one before: linear in ``trials``, where the
    general sum is quadratic (83 s for the 22,000 discordant games of 100,000 paired ones)."""
    least = min(successes, trials - successes)
    if 2 * least == trials:
        return 1.0
    tail, coefficient = 0, 1
    for count in range(least + 1):
        tail += coefficient
        coefficient = coefficient * (trials - count) // (count + 1)
    return float(min(Fraction(1), Fraction(2 * tail, 2**trials)))


@dataclass(frozen=True)
class PairedComparison:
    """Two runs over the same games, game for game."""

    games: int
    wins_before: int
    wins_after: int
    only_before: int
    """Games the first run won and the second lost."""
    only_after: int
    """Games the second run won and the first lost."""
    p_value: float
    """Exact two-sided sign test on the games only one run won: the chance of a split at
    least this uneven if both were equally strong."""

    @property
    def difference(self) -> float:
        """The second run's win rate minus the first's."""
        return (self.wins_after - self.wins_before) / self.games if self.games else 0.0


def paired_comparison(before: str, after: str) -> PairedComparison:
    """Compare two runs' outcomes, each a string of "1" (won) and "0" (lost) per game, in the
    same order over the same games."""
    if len(before) != len(after):
        raise ValueError(f"the runs cover {len(before)} and {len(after)} games: not the same games")
    if set(before + after) - {"0", "1"}:
        raise ValueError('outcomes are strings of "1" (won) and "0" (lost)')
    only_before = sum(1 for b, a in zip(before, after, strict=True) if b == "1" and a == "0")
    only_after = sum(1 for b, a in zip(before, after, strict=True) if b == "0" and a == "1")
    return PairedComparison(
        games=len(before),
        wins_before=before.count("1"),
        wins_after=after.count("1"),
        only_before=only_before,
        only_after=only_after,
        p_value=binomial_test(only_after, only_before + only_after),
    )
