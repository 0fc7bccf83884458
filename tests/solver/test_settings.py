"""The solver's settings: one typed object, checked when made, in force for a block at a time."""

from __future__ import annotations

import pickle
import re
import threading
from dataclasses import FrozenInstanceError, fields, replace

import pytest

from solver.errors import SettingError
from solver.settings import Settings, current, using


def test_every_setting_has_a_range_that_its_default_keeps() -> None:
    defaults = Settings()
    for setting in fields(Settings):
        low, high = setting.metadata["low"], setting.metadata["high"]
        value = getattr(defaults, setting.name)
        for number in value if isinstance(value, tuple) else (value,):
            assert low <= number and (high is None or number <= high), setting.name


def test_settings_cannot_be_changed_in_place_only_replaced() -> None:
    with pytest.raises(FrozenInstanceError):
        current().max_states = 1  # type: ignore[misc]
    assert replace(current(), max_states=7).max_states == 7
    assert current().max_states == Settings().max_states


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"max_states": 0}, "max_states must be at least 1, not 0"),
        ({"endgame_visits": 2.5}, "endgame_visits takes int values, not float (2.5)"),
        ({"second_safety_weight": 2}, "second_safety_weight must be between 0 and 1, not 2.0"),
        ({"inner_opening": (1, 2, 3)}, "inner_opening takes tuple[int, int] values"),
        ({"MAX_STATES": 5}, "'MAX_STATES' is not a solver setting: it is named max_states now"),
    ],
)
def test_a_bad_setting_is_refused_in_one_line(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SettingError, match=re.escape(message)):
        current().changed(changes)


def test_using_puts_the_previous_settings_back_even_after_an_error() -> None:
    before = current()
    fewer = current().changed({"endgame_layouts": 10})
    with pytest.raises(RuntimeError), using(fewer):
        assert current() is fewer
        raise RuntimeError
    assert current() is before


def test_settings_travel_to_other_processes_as_they_are() -> None:
    changed = current().changed({"inner_opening": (0, 0), "second_safety_weight": 1})
    assert pickle.loads(pickle.dumps(changed)) == changed
    assert changed.second_safety_weight == 1.0 and type(changed.second_safety_weight) is float


def test_two_threads_play_with_their_own_settings_at_once() -> None:
    """A cluster's worker process may play chunks of two runs at once, in two threads: each
    sees the settings of its own run for the whole of its block, whatever the other sets."""
    inside, seen = threading.Barrier(2), {}

    def play(layouts: int) -> None:
        with using(current().changed({"endgame_layouts": layouts})):
            inside.wait(timeout=10)  # both blocks are open now
            seen[layouts] = current().endgame_layouts
            inside.wait(timeout=10)

    threads = [threading.Thread(target=play, args=(n,)) for n in (11, 22)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {11: 11, 22: 22}
    assert current() == Settings()
