"""The solver's tuning settings: one typed, frozen object, read where they are used.

Every limit, count and weight that one may turn to trade speed for strength, or to try another
idea, is a field of :class:`Settings`, with its type, why it has its value, and the range it may
take (checked whenever a :class:`Settings` is made). The rules read the settings in force,
:func:`current`, when they run. ``autosweeper bench --set NAME=VALUE`` plays with others
(:meth:`Settings.changed`, :func:`using`, which puts the previous ones back, in every process
that plays), and so do tests. Facts of the game or of how the code works (Expert's size, the
4-bit slots of a count's states, the sizes of caches) are not settings: they stay where they
are used.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from typing import Any, get_args, get_origin, get_type_hints

from solver.errors import SettingError


def _range(low: float, high: float | None = None) -> dict[str, float | None]:
    """A field's allowed range, ``low`` to ``high`` (None: no upper bound), both included; for a
    tuple, each of its numbers."""
    return {"low": low, "high": high}


@dataclass(frozen=True)
class Settings:
    """The solver's tuning settings; the defaults are what autosweeper plays with."""

    # -- the exact count (solver.group_count, solver.box_order, solver.analysis) ---------------
    max_states: int = field(default=60_000, metadata=_range(1))
    """Most states the forward pass over one group may visit (well under a second) before
    numbers are dropped."""
    max_group_work: int = field(default=6_000_000, metadata=_range(1))
    """Most work the count of one group may take, in steps of its inner loops: on a big board
    long mine-count polynomials make each state costly (about a second at this limit)."""
    max_total_work: int = field(default=12_000_000, metadata=_range(0))
    """Most work the groups of one analysis may take together (a 100x100 board can hold
    hundreds of big groups); once it is spent, each further group gets ``min_group_work``."""
    min_group_work: int = field(default=20_000, metadata=_range(1))
    """Work every group may still take once ``max_total_work`` is spent (enough for the small
    groups that make up most of a board)."""
    try_more_starts_above: int = field(default=2_000, metadata=_range(0))
    """Estimated states above which orders of a group's boxes from other starts are tried (an
    order's cost varies a lot with its start on big groups; on small ones the first is cheap)."""
    other_starts: int = field(default=12, metadata=_range(1))
    """How many other starts are tried then, spread along the first order."""
    max_exact_products: int = field(default=300_000, metadata=_range(0))
    """Most multiplications combining the groups may take in whole numbers; beyond (seconds a
    hundred thousand on big boards whose counts have thousands of digits) it runs to 30
    significant digits, the solution count and the certain cells staying exact."""

    # -- guessing (solver.strategy, solver.guess) --------------------------------------------
    endgame_layouts: int = field(default=1000, metadata=_range(1))
    """At most this many consistent layouts: guesses come from the exact win-probability
    search."""
    endgame_visits: int = field(default=500_000, metadata=_range(1))
    """The endgame search gives up after looking at this many layouts (about 0.75 s of one
    core); the look-ahead scoring then chooses."""
    candidate_safety_ratio: float = field(default=0.9, metadata=_range(0, 1))
    """Cells at least this fraction as safe as the safest cell are scored for a guess."""
    max_candidates: int = field(default=8, metadata=_range(1))
    """Most frontier cells scored for one guess (the safest first)."""
    off_frontier_candidates: int = field(default=8, metadata=_range(1))
    """Cells away from the frontier scored for a guess (the fewest unknown neighbours first, the
    likeliest to show a 0): 8 rather than 3 won +96 paired Expert safe games in 32,000
    (p = 0.054) for about 9 CPU ms more a game (CHANGELOG.md, session 5)."""
    second_safety_weight: float = field(default=0.5, metadata=_range(0, 1))
    """Share of the second safest next cell in a guess's score (the rest is the safest's): 0.5
    won more paired Expert opening games than 0.2 or 0 (CHANGELOG.md, session 4)."""
    inner_opening: tuple[int, int] = field(default=(3, 3), metadata=_range(0))
    """First click under the ``opening`` rule, (row, column), at most the board's middle: an
    inner cell opens more than a corner."""
    max_enumerated_layouts: int = field(default=4000, metadata=_range(1))
    """Most layouts of the groups a guess's look-ahead touches (their product) that it will
    enumerate, and most layouts of a group searched for an unavoidable 50/50."""

    # -- roll-outs, the strong setting (solver.rollout) -------------------------------------
    rollout_layouts: int = field(default=0, metadata=_range(0))
    """Layouts drawn to play out each of the guesses the look-ahead cannot tell apart (0: none,
    the fast setting). Each costs a game's play per candidate: about 15 ms on Expert."""
    rollout_candidates: int = field(default=3, metadata=_range(2))
    """Most cells, the best scored first, that are played out against each other."""
    rollout_score_gap: float = field(default=0.01, metadata=_range(0, 1))
    """Cells whose look-ahead score is within this fraction of the best's are played out: the
    look-ahead cannot tell those apart, and a roll-out, like it, is only an estimate."""

    # -- the exact win-probability search in play (solver.layouts, solver.winprob_search) ----
    max_enumeration_steps: int = field(default=200_000, metadata=_range(1))
    """Backtracking steps the listing of the consistent layouts may take."""
    max_unresolved: int = field(default=48, metadata=_range(1))
    """Most cells, a mine in some consistent layouts and not in others, a search takes on."""

    # -- the regret measure (solver.bench.regret), not the rules ----------------------------
    regret_min_layouts: int = field(default=1, metadata=_range(1))
    """Guesses with fewer consistent layouts than this are not kept."""
    regret_max_layouts: int = field(default=5000, metadata=_range(1))
    """Guesses with more consistent layouts than this are not kept (the search could not value
    them in reasonable time)."""
    regret_max_visits: int = field(default=30_000_000, metadata=_range(1))
    """Layouts one position's search may look at before it gives up (about a minute of a
    core)."""

    def __post_init__(self) -> None:
        """Refuse a value of the wrong type or out of its range (:class:`SettingError`); take a
        whole number for a fraction."""
        for setting in fields(self):
            value = _checked(setting.name, _TYPES[setting.name], getattr(self, setting.name))
            for number in value if isinstance(value, tuple) else (value,):
                _check_range(
                    setting.name, number, setting.metadata["low"], setting.metadata["high"]
                )
            object.__setattr__(self, setting.name, value)

    def changed(self, changes: Mapping[str, object]) -> Settings:
        """These settings with ``changes`` (by field name), checked: :class:`SettingError`
        names an unknown setting, a value of the wrong type or out of its range."""
        for name in changes:
            if name not in _TYPES:
                raise SettingError(_unknown(name))
        unchecked: dict[str, Any] = dict(changes)  # checked by __post_init__, field by field
        return replace(self, **unchecked)


STRENGTHS: dict[str, dict[str, object]] = {
    "fast": {},
    "strong": {"rollout_layouts": 20},
}
"""Named ways to trade time for wins (``--strength``), as settings changed from the defaults:
``fast`` is the defaults; ``strong`` plays out the guesses the look-ahead scores alike, 20
layouts each (about a second of CPU more per Expert game)."""


def _checked(name: str, kind: Any, value: object) -> object:
    """``value`` as a value of ``kind`` (a float for a whole number given for a fraction), or
    :class:`SettingError`."""
    if kind is float and type(value) is int:
        return float(value)
    if get_origin(kind) is tuple:
        parts = get_args(kind)
        if (
            type(value) is tuple
            and len(value) == len(parts)
            and all(type(v) is part for v, part in zip(value, parts, strict=True))
        ):
            return value
    elif type(value) is kind:
        return value
    shown = str(kind) if get_origin(kind) else kind.__name__
    raise SettingError(f"{name} takes {shown} values, not {type(value).__name__} ({value!r})")


def _check_range(name: str, value: Any, low: float, high: float | None) -> None:
    """Refuse a number out of ``low``..``high``, NaN included (the ranges leave the solver
    work to do: a limit of 0 states once hung a run for good)."""
    if high is None and not low <= value:
        raise SettingError(f"{name} must be at least {low}, not {value}")
    if high is not None and not low <= value <= high:
        raise SettingError(f"{name} must be between {low} and {high}, not {value}")


def _unknown(name: str) -> str:
    """Why ``name`` is no setting, with the name a setting of an older autosweeper has now
    (``solver.strategy.ENDGAME_LAYOUTS`` is ``endgame_layouts``)."""
    renamed = name.rpartition(".")[2].lower()
    if renamed != name and renamed in _TYPES:
        return f"{name!r} is not a solver setting: it is named {renamed} now"
    return f"{name!r} is not a solver setting (they are: {', '.join(_TYPES)})"


_TYPES: dict[str, Any] = get_type_hints(Settings)
"""Each setting's type, from its annotation."""

_DEFAULTS = Settings()
_current: ContextVar[Settings] = ContextVar("solver_settings", default=_DEFAULTS)
"""The settings in force, per thread (and per asyncio task): a cluster's worker process, shared
and long-lived, may play chunks of several runs at once, each in a thread of its own."""


def current() -> Settings:
    """The settings in force here."""
    return _current.get()


def set_current(settings: Settings) -> Settings:
    """Put ``settings`` in force in this thread (a benchmark's worker process's, for all its
    life); returns the settings they replace."""
    previous = _current.get()
    _current.set(settings)
    return previous


@contextmanager
def using(settings: Settings) -> Iterator[Settings]:
    """``settings`` in force for the block, in this thread; the previous ones put back after."""
    token = _current.set(settings)
    try:
        yield settings
    finally:
        _current.reset(token)
