"""``autosweeper bench``: the strategy's win rate on simulated games, per level and rule."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from controller.commands import STDOUT, positive_int, seed_int, unwritable
from controller.errors import CommandError
from solver.bench.clicks import measure_clicks
from solver.bench.play import Strategy, load_strategy, measure_engine
from solver.bench.regret import measure_regret
from solver.bench.results import BenchResult, format_table, read_json, results_json
from solver.bench.run import parse_override, run_benchmark
from solver.bench.stats import paired_comparison
from solver.board import LEVELS
from solver.engine import FirstClick
from solver.settings import STRENGTHS, Settings

DEFAULT_STRATEGY = "solver.strategy:next_moves"
CHORDED_STRATEGY = "solver.chords:chorded_moves"


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "bench",
        help="measure the win rate on simulated games",
        description=(
            "Play seeded simulated games with the solver on every core and report the win rate "
            "(Wilson 95% interval), speed and decision times. Game i uses seed SEED+i, so runs "
            "repeat exactly."
        ),
    )
    _add_games_options(parser)
    _add_what_to_measure_options(parser)
    _add_output_options(parser)
    return parser


def _add_games_options(parser: argparse.ArgumentParser) -> None:
    """Which games are played: level, rule, count, seeds, and where: processes or a cluster."""
    parser.add_argument(
        "--level", choices=[*LEVELS, "all"], default="all", help="(default: %(default)s)"
    )
    parser.add_argument(
        "--rule",
        choices=[*(rule.value for rule in FirstClick), "all"],
        default="safe",
        help="first-click rule (default: %(default)s)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=100,
        help="games per level and rule (default: %(default)s)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=positive_int,
        help=f"processes (default: every core, {os.cpu_count() or 1} here)",
    )
    where.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:8786) instead, "
        "with the same games and results; its workers need the same autosweeper installed",
    )
    parser.add_argument(
        "--seed", type=seed_int, default=0, help="seed of the first game (default: %(default)s)"
    )


def _add_what_to_measure_options(parser: argparse.ArgumentParser) -> None:
    """Which solver plays them and what is measured: the strategy, its settings, or instead a
    comparison of saved runs, the regret of guesses, or the engine alone."""
    parser.add_argument(
        "--strategy",
        default=DEFAULT_STRATEGY,
        metavar="MODULE:FUNCTION",
        help="the move function to measure (default: %(default)s)",
    )
    parser.add_argument(
        "--set",
        type=_override,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        dest="overrides",
        help="change a solver setting for this run, by its name in solver.settings.Settings, "
        "e.g. endgame_layouts=1000 (repeatable; saved with the results)",
    )
    parser.add_argument(
        "--strength",
        choices=list(STRENGTHS),
        default="fast",
        help="fast (the defaults) or strong (guesses the look-ahead scores alike are played "
        "out on sampled boards: slower); --set changes settings on top of it",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BEFORE.json", "AFTER.json"),
        help="instead of playing, compare two saved runs over the same seeds game for game: "
        "the games only one of them won, and an exact sign test on those",
    )
    parser.add_argument(
        "--regret",
        action="store_true",
        help="instead of win rates, measure what the guesses lose against best play: every "
        f"guess with at most {Settings().regret_max_layouts} consistent layouts "
        "(--set regret_max_layouts=N) is "
        "searched exactly, cell by cell (slow: minutes per thousand Expert games); --plot "
        "does not apply",
    )
    parser.add_argument(
        "--clicks",
        action="store_true",
        help=f"instead of win rates, count clicks as speed players do: the same games played "
        f"with --strategy and with chords ({CHORDED_STRATEGY}); the won games' 3BV, clicks and "
        "median efficiency (3BV per click), and the games only one of them won",
    )
    parser.add_argument(
        "--engine",
        action="store_true",
        help="time the game engine alone instead (one process, no strategy: every safe cell "
        "opened in a random order), in games and open() calls per second",
    )


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """Where the results go besides the printed table."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--out",
        type=Path,
        metavar="FILE.json",
        help="save the results as JSON (- for standard output)",
    )
    output.add_argument(
        "--json",
        action="store_const",
        const=STDOUT,
        dest="out",
        help="print the results as JSON on standard output (the same as --out -)",
    )
    parser.add_argument(
        "--plot",
        type=Path,
        metavar="FILE.png",
        help="draw the win rate per level with its interval",
    )


def _override(text: str) -> tuple[str, object]:
    try:
        return parse_override(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    if args.plot == STDOUT:
        raise CommandError("--plot draws a PNG file: give it a file name, not -")
    for path in (args.out, args.plot):
        if path is not None and (problem := unwritable(path)):
            raise CommandError(problem)
    if args.cluster and (args.compare or args.engine or args.regret or args.clicks):
        raise CommandError(
            "--cluster plays the win-rate benchmark only, not --compare, --engine, --regret or "
            "--clicks"
        )
    if args.workers is None and not args.cluster:
        # Defaulted here: argparse takes an option whose value is its default for one not given,
        # so with a default of 2, "--workers 2 --cluster A" would pass as not exclusive.
        args.workers = os.cpu_count() or 1
    if args.compare:
        return compare(*args.compare)
    levels = list(LEVELS) if args.level == "all" else [args.level]
    if args.engine:
        for level in levels:
            speed = measure_engine(level, args.games, args.seed)
            print(
                f"{level:<13}{speed.games:>7} games  {speed.games_per_second:>9.0f} games/s"
                f"  {speed.opens_per_second:>9.0f} opens/s"
            )
        return 0
    rules = list(FirstClick) if args.rule == "all" else [FirstClick(args.rule)]
    if args.clicks:
        return clicks(args, levels, rules)
    strategy = load_strategy(args.strategy)
    if args.regret:
        return regret(args, strategy, levels, rules)
    results = run_benchmark(
        strategy,
        levels,
        rules,
        args.games,
        args.workers,
        args.seed,
        overrides=_overrides(args),
        cluster=args.cluster,
    )
    print(format_table(results), file=_text_stream(args))
    _save(results_json(results, _settings(args, levels, rules)), args)
    if args.plot:
        plot_win_rates(results, args.plot)
        print(f"saved {args.plot}", file=_text_stream(args))
    return 0


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    """The settings changed for the run: the ``--strength``'s, then each ``--set``."""
    return {**STRENGTHS[args.strength], **dict(args.overrides)}


def _text_stream(args: argparse.Namespace) -> TextIO:
    """Where the table and notes go: standard error when standard output carries the JSON."""
    return sys.stderr if args.out == STDOUT else sys.stdout


def _save(document: str, args: argparse.Namespace) -> None:
    """Write the JSON ``document`` to ``--out``; if that fails even so, print it instead, so
    that a long run is never lost to the file system."""
    if args.out is None:
        return
    if args.out == STDOUT:
        sys.stdout.write(document)
        return
    try:
        args.out.write_text(document)
    except OSError as error:
        sys.stdout.write(document)
        raise CommandError(
            f"cannot write {args.out} ({error.strerror or error}): the results are printed above "
            "instead"
        ) from error
    print(f"saved {args.out}")


def _settings(
    args: argparse.Namespace, levels: list[str], rules: list[FirstClick]
) -> dict[str, object]:
    """What a saved run was asked to do, so that it can be repeated."""
    return {
        "strategy": args.strategy,
        "levels": levels,
        "rules": [str(rule) for rule in rules],
        "games": args.games,
        "workers": args.workers,
        "cluster": args.cluster,
        "seed": args.seed,
        "overrides": _overrides(args),
    }


def clicks(args: argparse.Namespace, levels: list[str], rules: list[FirstClick]) -> int:
    """Print the clicks of the same games played with ``--strategy`` and with chords."""
    strategies = [args.strategy, CHORDED_STRATEGY]
    print(
        f"{'level':<13}{'rule':<8}{'strategy':<30}{'games':>7}{'wins':>7}{'3BV':>9}"
        f"{'clicks':>9}{'efficiency':>12}"
    )
    for level in levels:
        for rule in rules:
            figures, differ = measure_clicks(
                strategies, level, rule, args.games, args.workers, args.seed
            )
            for f in figures:
                print(
                    f"{level:<13}{rule:<8}{f.strategy:<30}{len(f.games):>7}{f.wins:>7}"
                    f"{f.bbbv:>9}{f.clicks:>9}{f.efficiency:>12.1%}"
                )
            shown = ", ".join(map(str, differ[:10])) + (", ..." if len(differ) > 10 else "")
            print(f"games won by one only: {len(differ)}{f' (seeds {shown})' if differ else ''}")
    return 0


def regret(
    args: argparse.Namespace, strategy: Strategy, levels: list[str], rules: list[FirstClick]
) -> int:
    """Print (and save) what the guesses of each level and rule lose against best play."""
    reports = [
        measure_regret(
            strategy,
            level,
            rule,
            args.games,
            args.workers,
            args.seed,
            overrides=_overrides(args),
        )
        for level in levels
        for rule in rules
    ]
    text = _text_stream(args)
    print(
        f"{'level':<13}{'rule':<8}{'games':>7}{'guesses':>9}{'solved':>8}{'not best':>10}"
        f"{'wins lost':>11}{'win rate lost':>15}",
        file=text,
    )
    for report in reports:
        print(
            f"{report.level:<13}{report.rule:<8}{report.games:>7}{report.kept:>9}"
            f"{report.solved:>8}{report.not_best:>10}{report.lost:>11.2f}"
            f"{100 * report.lost / report.games:>14.3f}%",
            file=text,
        )
    _save(results_json(reports, _settings(args, levels, rules), key="regret"), args)
    return 0


def compare(before_path: Path, after_path: Path) -> int:
    """Print the paired comparison of every level and rule that two saved runs share."""
    before, after = read_json(before_path), read_json(after_path)
    earlier = {(r.level, r.rule): r for r in before}
    shared = [(earlier[(r.level, r.rule)], r) for r in after if (r.level, r.rule) in earlier]
    if not shared:
        raise CommandError(f"{before_path} and {after_path} share no level and rule")
    for old, new in shared:
        where = f"{old.level} {old.rule}"
        if (old.first_seed, old.games) != (new.first_seed, new.games):
            raise CommandError(
                f"{where}: the runs played different games (seeds "
                f"{old.first_seed}+{old.games} and {new.first_seed}+{new.games})"
            )
        if not old.outcomes or not new.outcomes:
            raise CommandError(
                f"{where}: a run saved no game-by-game outcomes (saved by an older "
                "autosweeper); run it again"
            )
    print(f"before: {before_path}  after: {after_path}")
    print(
        f"{'level':<13}{'rule':<8}{'games':>7}{'before':>8}{'after':>8}{'only before':>13}"
        f"{'only after':>12}{'difference':>12}{'sign test p':>13}"
    )
    for old, new in shared:
        paired = paired_comparison(old.outcomes, new.outcomes)
        print(
            f"{old.level:<13}{old.rule:<8}{paired.games:>7}{paired.wins_before:>8}"
            f"{paired.wins_after:>8}{paired.only_before:>13}{paired.only_after:>12}"
            f"{100 * paired.difference:>+11.2f}%{paired.p_value:>13.3f}"
        )
    return 0


def plot_win_rates(results: Sequence[BenchResult], path: Path) -> None:
    """A bar per level and rule, with the Wilson interval as its error bar."""
    import matplotlib  # only --plot needs it: keep the command quick to start without

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    levels = list(dict.fromkeys(r.level for r in results))
    rules = list(dict.fromkeys(r.rule for r in results))
    width = 0.8 / len(rules)
    figure, axes = plt.subplots(figsize=(2 + 2 * len(levels), 4))
    for k, rule in enumerate(rules):
        rows = [r for r in results if r.rule == rule]
        x = [levels.index(r.level) + (k - (len(rules) - 1) / 2) * width for r in rows]
        rates = [100 * r.win_rate for r in rows]
        errors = [
            [100 * (r.win_rate - r.wilson_low) for r in rows],
            [100 * (r.wilson_high - r.win_rate) for r in rows],
        ]
        axes.bar(x, rates, width, yerr=errors, capsize=4, label=f"first click: {rule}")
    axes.set_xticks(range(len(levels)), levels)
    axes.set_title(f"{results[0].games} simulated games per bar")
    axes.set_ylabel("win rate, % (Wilson 95% interval)")
    axes.set_ylim(0, 100)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
