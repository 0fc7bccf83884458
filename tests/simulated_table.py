"""A simulated game table for the play loop's tests: a game in memory that the loop reads and
clicks as it would a screen, with faults a real screen may show switched on by its arguments
(:class:`SimulatedTable`), and the helpers that play runs on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest
from virtual_clock import use_virtual_clock

import controller.loop
import controller.reading
from calibration.dialogs import DialogAnswer
from controller.chording import Chording, ChordWays
from controller.loop import (
    GamePlayer,
    GameReport,
    play_games,
)
from controller.outcomes import LoggedGame, OutcomeLog, Result
from solver import Board, Game, GameState, Tile
from solver.engine import neighbour_counts
from solver.strategy import Action, Move
from vision.errors import (
    BoardNotFoundError,
    UnreadableCellError,
)
from vision.read import Reading

NO_CROP = Path("no-crop.png")
"""The crop an unreadable cell of a simulated board names: none is saved."""


@pytest.fixture(autouse=True)
def virtual_time(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's waits pass at once: a simulated game changes only when it is played. A test
    module that imports :mod:`time` reads the same clock (a test may time what the loop does)."""
    own = [request.module] if hasattr(request.module, "time") else []
    use_virtual_clock(monkeypatch, *own, controller.loop, controller.reading)


def play_all(player: GamePlayer, games: int) -> list[GameReport]:
    """Every game of a run, with the live lines dropped."""
    return list(play_games(player, games, echo=lambda line: None))


def quick_player(table: SimulatedTable, log: OutcomeLog, flags: bool = False) -> GamePlayer:
    """A player that may start several games a second (simulated games need no new seed)."""
    return GamePlayer(table, log, flags=flags, one_game_a_second=False)


def won_games(table: SimulatedTable, log: OutcomeLog, games: int) -> list[LoggedGame]:
    """The records of the games won in a run of ``games`` on ``table``."""
    reports = play_all(quick_player(table, log), games)
    return [report.record for report in reports if report.record.result == Result.WON]


class SimulatedTable:
    """A Table over solver.Game: what a real window would show, with faults to inject.

    ``faults`` maps the number of a look (counted from 1) to an exception to raise instead.
    With ``flags_to_win`` the face says won only once every mine is flagged (like xdemineur).
    """

    def __init__(
        self,
        seed: int,
        size: tuple[int, int, int] = (9, 9, 10),
        flags_to_win: bool = False,
        faults: dict[int, Exception] | None = None,
        relocation: str = "same",
        drops_clicks: bool = False,
        ignored_new_games: int = 0,
        opens_a_start: bool = False,
        face_lag: int = 0,
        unknown_numbers: frozenset[int] = frozenset(),
        dialog_on_loss: bool = False,
        reveals_on_loss: bool = False,
        closed_mines_when_won: bool = False,
        flags_to_end: bool = False,
        face_misses_win: bool = False,
        chords: str | None = None,
    ) -> None:
        self.game = "simulated"
        self.skin = "simulated-skin"
        self.first_click: str | None = "safe"
        self.takes_flags = True
        self.board_goes_away = False
        self.size = size
        self.seed = seed
        self.flags_to_win = flags_to_win
        self.faults = faults or {}
        self.relocation = relocation
        """Where relocate finds the board: the "same" place, "moved", or "gone"."""
        self.drops_clicks = drops_clicks
        self.ignored_new_games = ignored_new_games
        """How many new-game actions the game misses (like one still busy with the last game)."""
        self.looks = 0
        self.clicks: list[tuple[tuple[int, int], Action]] = []
        self.new_games = 0
        self.new_game_attempts: list[int] = []
        self.opens_a_start = opens_a_start
        self.face_lag = face_lag
        """How many looks the face still says playing once every mine is flagged."""
        """Like xdemineur: every new game opens a starting area by itself."""
        self.unknown_numbers = set(unknown_numbers)
        """Numbers the skin cannot read: unreadable until adopted, then OPENED until labelled."""
        self.adopted: list[int] = []
        """The number each adopted picture shows, by picture index."""
        self.unreadable_looks = 0
        """Looks that found a number not adopted yet."""
        self.labelled: dict[int, Tile] = {}
        self.labelled_in_play: set[int] = set()
        """The numbers labelled while their game was still in play."""
        self.dialog_on_loss = dialog_on_loss
        """Like kmines: a loss opens a dialog over the board, which only close_dialogs closes."""
        self.dialog_open = False
        self.dialogs_closed = 0
        self.reveals_on_loss = reveals_on_loss
        """Like xbomb: a loss shows every cell's number too."""
        self.lost_reads = 0
        """Boards read lost with the cells of a number never seen taken as hidden."""
        self.stepped_away = 0
        self.slowed_down = 0
        """Times the loop asked for clicks further apart."""
        self.closed_mines_when_won = closed_mines_when_won or flags_to_end
        """A board with every safe cell open shows its mines closed, not flagged."""
        self.flags_to_end = flags_to_end
        """Like xbomb: no face, and a board with every safe cell open still takes flags; the
        game ends (and counts as won) only once every mine is flagged."""
        self.late_flags: set[tuple[int, int]] = set()
        """The flags that game took after every safe cell was open."""
        self.face_misses_win = face_misses_win
        """A face that never shows a win: it still says playing (a game that forgets to draw
        its won face), while the game, over, takes no click."""
        self.won_faces_offered = 0
        """Games won with a face read as none of the skin's, offered to learn_won_face."""
        self.chords = chords
        """How the game takes a chord (a way of vision.skin.CHORD_WAYS); None: the table
        sends none."""
        self.extra: dict[str, object] = {}
        """The skin's extras, where the way learned is kept."""
        self.chord_ways = ChordWays(self.extra, lambda: None)
        self.current = self._started(seed)

    def _started(self, seed: int) -> Game:
        game = Game(*self.size, rule="safe", seed=seed)
        if self.opens_a_start:
            game.open((self.size[0] // 2, self.size[1] // 2))
        return game

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        self.looks += 1
        fault = self.faults.pop(self.looks, None)
        if fault is not None:
            raise fault
        if self.dialog_open:
            raise UnreadableCellError("simulated: a dialog covers the board", (0, 0), NO_CROP)
        return self._reading()

    def _shown(self) -> Board:
        """The board on the screen now."""
        board = self.current.board.copy()
        layout = self.current.mine_layout
        if self.closed_mines_when_won and board.is_won and layout is not None:
            board.tiles[layout] = Tile.HIDDEN
        for cell in self.late_flags:
            board.tiles[cell] = Tile.FLAG
        if self.reveals_on_loss and board.is_lost and layout is not None:
            closed = (board.tiles == Tile.HIDDEN) & ~layout
            board.tiles[closed] = neighbour_counts(layout)[closed]
        return board

    def _reading(self) -> Reading:
        """What the screen shows now, faults aside."""
        board = self._shown()
        pictures = self._unlabelled(board)
        face = None
        if self.face_misses_win:
            face = "lost" if board.is_lost else "playing"
        if self.flags_to_win:
            all_flagged = board.is_won and not (board.tiles == Tile.HIDDEN).any()
            if all_flagged and self.face_lag:
                self.face_lag -= 1
                all_flagged = False
            face = "lost" if board.is_lost else "won" if all_flagged else "playing"
        return Reading(board, np.zeros(board.tiles.shape, np.float32), face, pictures)

    def _unlabelled(self, board: Board) -> dict[tuple[int, int], int]:
        """Show the numbers the skin cannot read as OPENED (adopted) or raise (not yet)."""
        unknown = [n for n in self.unknown_numbers if n not in self.labelled]
        cells = [(int(r), int(c)) for r, c in np.argwhere(np.isin(board.tiles, unknown))]
        new = tuple(cell for cell in cells if int(board.tiles[cell]) not in self.adopted)
        if new:
            self.unreadable_looks += 1
            raise UnreadableCellError("simulated: a picture no tile matches", new[0], NO_CROP, new)
        pictures = {cell: self.adopted.index(int(board.tiles[cell])) for cell in cells}
        for cell in cells:
            board.tiles[cell] = Tile.OPENED
        return pictures

    def adopt_unknown(
        self,
        cells: Sequence[tuple[int, int]],
        keep: Callable[[Reading], bool],
        last_read: bool = False,
    ) -> Reading | None:
        if last_read:  # a number drawn late shows the 0's own picture: nothing to adopt
            return None
        adopted = list(self.adopted)
        for cell in cells:
            number = int(self.current.board.tiles[cell])
            if number not in self.adopted:
                self.adopted.append(number)
        try:  # the real table reads the frame it found unreadable, and looks at nothing new
            reading = self._reading()
        except UnreadableCellError:
            reading = None
        if reading is not None and keep(reading):
            return reading
        self.adopted = adopted
        return None

    def learn_won_face(self) -> bool:
        self.won_faces_offered += 1
        return False

    def learn_flags(
        self, cells: Sequence[tuple[int, int]], keep: Callable[[Reading], bool] = lambda r: True
    ) -> Reading | None:
        if not all(self._shown()[cell] == Tile.FLAG for cell in cells):
            return None  # the real table reads the new pictures as flags, or learns nothing
        self.labelled[Tile.FLAG] = Tile.FLAG
        return self._reading()

    def check_whole(self) -> bool:
        """The fake board is the whole board."""
        return False

    def read_mine_count(self) -> int | None:
        """The count is the table's from the start."""
        return None

    def end_message(self) -> GameState | None:
        """No message is drawn over a simulated board."""
        return None

    def read_lost(
        self, cells: Sequence[tuple[int, int]], numbers: Mapping[tuple[int, int], Tile]
    ) -> Reading | None:
        board = self._shown()
        if not board.is_lost:
            return None
        for cell in set(cells) - set(numbers):
            board.tiles[cell] = Tile.OPENED
        try:
            pictures = self._unlabelled(board)
        except UnreadableCellError:
            return None
        self.lost_reads += 1
        return Reading(board, np.zeros(board.tiles.shape, np.float32), None, pictures)

    def known_numbers(self) -> dict[int, set[Tile]]:
        return {
            0: {Tile(n) for n in range(9) if n not in self.unknown_numbers or n in self.labelled}
        }

    def picture_classes(self) -> dict[int, int]:
        return dict.fromkeys(range(len(self.adopted)), 0)

    def label(self, tiles: Mapping[int, Tile]) -> None:
        for picture, tile in tiles.items():
            assert self.adopted[picture] == tile, f"picture of {self.adopted[picture]} as {tile}"
            self.labelled[int(tile)] = tile
            if self.current.state == GameState.PLAYING:
                self.labelled_in_play.add(int(tile))
        self.adopted = [n for i, n in enumerate(self.adopted) if i not in tiles]

    def play(self, move: Move) -> bool:
        rows, columns, _ = self.size
        assert 0 <= move.cell[0] < rows and 0 <= move.cell[1] < columns, "click outside the board"
        assert not self.dialog_open, "a click on the board while a dialog covers it"
        self.clicks.append((move.cell, move.action))
        won = self.current.board.is_won
        if self.flags_to_end and won and move.action == Action.FLAG:
            self.late_flags ^= {move.cell}
        elif not self.drops_clicks:
            {
                Action.OPEN: self.current.open,
                Action.FLAG: self.current.flag,
                Action.CHORD: self.current.chord,
            }[move.action](move.cell)
            self.dialog_open = self.dialog_on_loss and self.current.board.is_lost
        return True

    def chord(self, cell: tuple[int, int]) -> bool:
        way = self.chord_ways.way
        assert way is not None and self.chords is not None, "a chord sent when chords are off"
        board = self.current.board
        if not any(board[near].is_closed for near in board.neighbours(cell)):
            return False
        self.clicks.append((cell, Action.CHORD))
        if way == self.chords and not self.drops_clicks:
            self.current.chord(cell)
        return True

    def chording(self) -> Chording:
        return Chording.OFF if self.chords is None else self.chord_ways.state

    def chord_opened(self, opened: bool) -> None:
        self.chord_ways.opened(opened)

    def take_clicks_slower(self) -> bool:
        self.slowed_down += 1
        return True

    def still_as_read(self) -> bool:
        return True  # drawn in one go

    def new_game(self, attempt: int = 0) -> None:
        assert not self.dialog_open, "a new-game action while a dialog is open"
        self.new_game_attempts.append(attempt)
        if self.ignored_new_games:
            self.ignored_new_games -= 1
            return
        self.new_games += 1
        self.current = self._started(self.seed + self.new_games)
        self.late_flags = set()

    def close_dialogs(self) -> int:
        was_open, self.dialog_open = self.dialog_open, False
        self.dialogs_closed += was_open
        return int(was_open)

    def answer_dialog(self) -> DialogAnswer:
        return DialogAnswer.NO_VEIL  # the simulated game draws no dialog in its window

    def step_away(self) -> None:
        self.stepped_away += 1

    def relocate(self) -> bool:
        if self.relocation == "gone":
            raise BoardNotFoundError("simulated: no board of simulated-skin on the screen")
        return self.relocation == "moved"
