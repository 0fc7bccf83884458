"""The Wilson score interval, checked against the score test it inverts."""

from fractions import Fraction
from math import comb, exp, lgamma, log, sqrt
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.bench.stats import binomial_test, format_win_rate, paired_comparison, wilson_interval

counts = st.integers(1, 100_000).flatmap(
    lambda games: st.tuples(st.integers(0, games), st.just(games))
)
confidences = st.sampled_from([0.8, 0.9, 0.95, 0.99])


def score_test_accepts(rate: float, wins: int, games: int, z: float) -> bool:
    """Whether the two-sided score test keeps ``rate`` as the true win rate."""
    if rate in (0.0, 1.0):
        return wins == rate * games
    return abs(wins / games - rate) <= z * sqrt(rate * (1 - rate) / games)


def bisect_edge(inside: float, outside: float, accepts) -> float:
    for _ in range(100):
        middle = (inside + outside) / 2
        inside, outside = (middle, outside) if accepts(middle) else (inside, middle)
    return inside


@given(counts, confidences)
def test_the_interval_is_the_set_of_rates_the_score_test_accepts(case, confidence) -> None:
    wins, games = case
    z = NormalDist().inv_cdf(0.5 + confidence / 2)

    def accepts(rate: float) -> bool:
        return score_test_accepts(rate, wins, games, z)

    observed = wins / games
    low, high = wilson_interval(wins, games, confidence)
    assert low == pytest.approx(bisect_edge(observed, 0.0, accepts), abs=1e-9)
    assert high == pytest.approx(bisect_edge(observed, 1.0, accepts), abs=1e-9)


@given(counts, confidences)
def test_the_interval_holds_the_observed_rate_and_widens_with_confidence(case, confidence) -> None:
    wins, games = case
    low, high = wilson_interval(wins, games, confidence)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    wider_low, wider_high = wilson_interval(wins, games, 0.999)
    assert wider_low <= low and high <= wider_high


def test_more_games_at_the_same_rate_narrow_the_interval() -> None:
    intervals = [wilson_interval(4 * n, 10 * n) for n in (1, 10, 100, 1000, 10_000)]
    widths = [high - low for low, high in intervals]
    assert widths == sorted(widths, reverse=True) and widths[-1] < 0.01


@pytest.mark.parametrize("games", [1, 10, 1000])
def test_no_wins_and_all_wins_have_the_closed_form_bound(games: int) -> None:
    """With no wins the upper bound is z^2 / (n + z^2); all wins mirror it."""
    z = NormalDist().inv_cdf(0.975)
    low, high = wilson_interval(0, games)
    assert low == 0.0 and high == pytest.approx(z * z / (games + z * z), rel=1e-12)
    low, high = wilson_interval(games, games)
    assert high == 1.0 and low == pytest.approx(games / (games + z * z), rel=1e-12)


def test_the_format_quotes_percent_and_interval() -> None:
    low, high = wilson_interval(412, 1000)
    assert format_win_rate(412, 1000) == f"41.20% [{100 * low:.2f}, {100 * high:.2f}]"


def test_no_games_know_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert format_win_rate(0, 0) == "0.00% [0.00, 100.00]"


@pytest.mark.parametrize("wins, games", [(-1, 5), (6, 5), (0, -1)])
def test_impossible_counts_are_named(wins: int, games: int) -> None:
    with pytest.raises(ValueError, match=f"got {wins} wins in {games} games"):
        wilson_interval(wins, games)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 95])
def test_a_confidence_outside_zero_to_one_is_named(confidence: float) -> None:
    with pytest.raises(ValueError, match="confidence must lie strictly between 0 and 1"):
        wilson_interval(1, 2, confidence)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=60))
def test_the_paired_comparison_counts_the_games_only_one_run_won(
    games: list[tuple[bool, bool]],
) -> None:
    before = "".join("1" if b else "0" for b, _ in games)
    after = "".join("1" if a else "0" for _, a in games)
    paired = paired_comparison(before, after)
    assert paired.only_before == sum(b and not a for b, a in games)
    assert paired.only_after == sum(a and not b for b, a in games)
    assert paired.difference * len(games) == pytest.approx(paired.only_after - paired.only_before)
    # the exact two-sided sign test, summed by hand over the splits no likelier than this one
    split = paired.only_before + paired.only_after
    least = min(paired.only_before, paired.only_after)
    tails = sum(comb(split, k) for k in range(least + 1)) / 2**split
    expected = 1.0 if split == 0 or 2 * least == split else min(1.0, 2 * tails)
    assert paired.p_value == pytest.approx(expected)


def test_the_paired_comparison_refuses_runs_over_other_games() -> None:
    with pytest.raises(ValueError, match="3 and 2 games"):
        paired_comparison("101", "10")
    with pytest.raises(ValueError, match="strings of"):
        paired_comparison("1x", "10")
    assert paired_comparison("1110", "1011").p_value == 1.0  # one game each way: no evidence
    assert paired_comparison("0" * 12, "1" * 12).p_value == pytest.approx(2 / 2**12)


@pytest.mark.parametrize(
    ("successes", "trials", "rate", "p_value"),
    [
        # two-sided exact binomial test p-values, as scipy.stats.binomtest gives them
        (2, 10, 0.5, 0.109375),
        (7, 10, 0.5, 0.34375),
        (5, 20, 0.5, 0.04138946533203125),
        (28, 30, 0.99, 0.036147998312240706),
        (20, 30, 0.99, 2.5032660002446555e-13),
        (3, 12, 0.1, 0.11086997774500003),
    ],
)
def test_the_binomial_test_gives_the_known_p_values(
    successes: int, trials: int, rate: float, p_value: float
) -> None:
    assert binomial_test(successes, trials, rate) == pytest.approx(p_value, rel=1e-12)


@given(st.integers(0, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_sign_test_is_twice_the_smaller_tail(split: tuple[int, int]) -> None:
    successes, trials = split
    least = min(successes, trials - successes)
    tail = Fraction(sum(comb(trials, k) for k in range(least + 1)), 2**trials)
    expected = 1 if 2 * least == trials else min(Fraction(1), 2 * tail)
    assert binomial_test(successes, trials) == float(expected)
    assert binomial_test(trials - successes, trials) == binomial_test(successes, trials)


def test_the_sign_test_of_a_hundred_thousand_paired_games_is_exact() -> None:
    """A paired benchmark of 100,000 boards has some 22,000 discordant ones: the sign test
    must give their p-value exactly (checked here against a sum in logarithms)."""
    trials, successes = 22_000, 10_780
    logs = [
        lgamma(trials + 1) - lgamma(k + 1) - lgamma(trials - k + 1) - trials * log(2)
        for k in range(successes + 1)
    ]
    top = max(logs)
    expected = 2 * exp(top) * sum(exp(value - top) for value in logs)
    assert binomial_test(successes, trials) == pytest.approx(expected, rel=1e-9)
    assert 0.001 < expected < 0.01


def test_the_binomial_test_refuses_impossible_counts_and_rates() -> None:
    with pytest.raises(ValueError, match="got 4 of 3 trials"):
        binomial_test(4, 3)
    with pytest.raises(ValueError, match="between 0 and 1, not 1.5"):
        binomial_test(1, 3, 1.5)
    assert binomial_test(0, 0) == 1.0
    assert binomial_test(3, 3, 1.0) == 1.0 and binomial_test(2, 3, 1.0) == 0.0
