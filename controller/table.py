"""The game on the screen, as the play loop sees it: the :class:`Table` protocol, the one
interface through which the loop reads, clicks, starts new games and answers dialogs, whether the
game is a real window (:class:`controller.screen_table.ScreenTable`) or simulated in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from calibration.dialogs import DialogAnswer
from controller.chording import Chording
from solver import Cell, GameState, Tile
from solver.strategy import Move
from vision.read import Reading


class Table(Protocol):
    """One game on the screen, as the play loop sees it."""

    game: str
    """The program's name, as launched or as the skin records it."""
    skin: str
    first_click: str | None
    """The game's first-click rule when known (a :class:`solver.FirstClick` value)."""
    takes_flags: bool
    """Whether the game marks a cell on a right-click (False: no flag is ever sent)."""
    board_goes_away: bool
    """Whether a game's end takes its board away (a message, then a menu whose button brings
    a board back): a board no cell of which reads is then that end, or the menu between games."""

    def look(self, changed: bool = False, patience: float | None = None) -> Reading:
        """Wait until the board holds still (and, if ``changed``, differs from the last look,
        for at most ``patience`` seconds: None, the screen's own limit); read it."""

    def still_as_read(self) -> bool:
        """Whether the board last read (after clicks, showing each taken) is drawn whole: a
        game that animates what a click opens may show it half drawn (see
        :class:`vision.stable.StillRule`). False: read it again."""

    def play(self, move: Move) -> bool:
        """Click ``move``'s cell the way its action needs, if the game is still as last read.

        Returns False, clicking nothing, when the cell no longer needs the click (an earlier
        click of the burst opened it); raises :class:`controller.errors.NotAsRead`, clicking
        nothing, when the game is not there as last read (closed, moved, covered, or changed by
        itself)."""

    def chord(self, cell: Cell) -> bool:
        """Chord on the number at ``cell`` the way the game takes chords (learned or being
        tried, see :mod:`controller.chording`), if the number and every cell around it are as
        last read. False, sending nothing, when no cell around it is left closed; raises
        :class:`controller.errors.NotAsRead` as :meth:`play` does."""

    def chording(self) -> Chording:
        """Whether chords are sent, being tried, or never."""

    def chord_opened(self, opened: bool) -> None:
        """Whether the chord just tried (alone in its burst) opened anything: learns the way
        the game chords, or tries the next."""

    def take_clicks_slower(self) -> bool:
        """Send clicks further apart from now on: the game missed one sent right after another.
        False when they go as slowly as they can already."""

    def new_game(self, attempt: int = 0) -> None:
        """Start a new game: the skin's way first; later attempts may use another way the game
        offers (a key press can miss, depending on which window has the keyboard). Raises
        :class:`controller.errors.NoNewGameAction` when it offers none."""

    def relocate(self) -> bool:
        """Find the board again after it vanished; True if it moved (and was found)."""

    def close_dialogs(self) -> int:
        """Close the dialogs the game has open (a score table, a "Game Over" over the board),
        on those dialogs only; how many there were."""

    def answer_dialog(self) -> DialogAnswer:
        """If a dialog drawn inside the game's window veils it (a browser dims the page under
        its "OK"/"Cancel" box), click the dialog's button that leaves the game as it is (see
        :mod:`calibration.dialogs`), checked on the screen just before; what was found."""

    def step_away(self) -> None:
        """Move the pointer out of the game's window: a game may keep a message over its board
        while the pointer rests on the message (some popups do not hide while hovered)."""

    def known_numbers(self) -> dict[int, set[Tile]]:
        """Per size class of the board's cells (0 only, on an evenly spaced board), the numbers
        the skin has seen drawn on that class's cells."""

    def picture_classes(self) -> dict[int, int]:
        """The size class of each unlabelled picture (numbered as in
        :attr:`vision.read.Reading.pictures`): the class of the cells it was met on."""

    def adopt_unknown(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool], last_read: bool = False
    ) -> Reading | None:
        """The board just found unreadable at ``cells`` (with ``last_read``: the board last
        read, where ``cells`` read as something they cannot be, 0s beside hidden cells), with
        the pictures there taken as numbers not known yet (:attr:`solver.Tile.OPENED`), if
        ``keep`` accepts that reading; else None, and nothing is kept."""

    def learn_flags(
        self, cells: Sequence[Cell], keep: Callable[[Reading], bool] = lambda reading: True
    ) -> Reading | None:
        """The board just found unreadable at ``cells`` (closed cells a click just flagged, or
        the game on its win), with the pictures there taken as the game's flag on cells of their
        size class, if the whole board then reads (each of ``cells`` as a flag) and ``keep``
        takes that read: from now on they read so, and the skin keeps them. Else None, and
        nothing is kept."""

    def check_whole(self) -> bool:
        """On a new game's board, whether the board found was part of a larger one, which is
        played from now on (it must be read again). Checked at every new game: a board found
        short of an edge line that the game drew unlike the skin (a lost board), or of a line of
        0s (which locate leaves out where no shape is asked), shows whole on a later board."""

    def read_mine_count(self) -> int | None:
        """On a new game's board, the mine count the game shows beside it, where play reads it
        (it was not told the count); boards are read with that count from now on. None where
        it is not read, or not read surely (see :mod:`calibration.mine_count`)."""

    def end_message(self) -> GameState | None:
        """How the game ended, where a message over the board's place says so ("YOU WIN!");
        None where none does (or no words can be read)."""

    def read_lost(self, cells: Sequence[Cell], read_before: Mapping[Cell, Tile]) -> Reading | None:
        """The board just found unreadable at ``cells`` with those cells read as opened cells of
        unknown number (:attr:`solver.Tile.OPENED`), if the rest says the game is lost (a loss
        that shows every cell shows numbers no click opened, perhaps one never seen; a burst's
        last click may lose after an earlier one opened a number never seen); else None.
        Nothing is learned from those pictures: a message over a finished board is no number.
        But a cell of ``read_before`` (read as that number, or as a flag, during the game) keeps
        it: its picture is how a finished game draws that number or flag on its size class
        (a flag on a mine drawn as a green cross), read and kept so
        (:attr:`vision.skin.Skin.finished`), if the board then reads each as its tile."""

    def label(self, tiles: Mapping[int, Tile]) -> None:
        """Each unlabelled picture (numbered as in :attr:`vision.read.Reading.pictures`) shows
        its tile in ``tiles``: from now on cells of its size class read it so, and the skin keeps
        it. The pictures left unlabelled are numbered anew, in the same order."""

    def learn_won_face(self) -> bool:
        """On the board just read won, with a face none of the skin's: that face is the game's
        won face (calibration may never have won a game), which the skin keeps, so that a board
        left won is found by it. True if it was learned."""
