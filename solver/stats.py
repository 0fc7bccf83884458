"""Confidence intervals for win rates, shared by the benchmark and the controller's live stats.

The Wilson score interval is used rather than the textbook normal interval because win rates
sit near 0 or 1 on easy levels and after few games, where the normal interval leaves [0, 1]
and covers the true rate far less often than it claims.
"""

from __future__ import annotations

from math import sqrt
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
