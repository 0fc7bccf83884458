"""Calibration from start to end: play games on live windows until every tile has a meaning, then
build the :class:`vision.skin.Skin` and check that vision reads the live board with it.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from calibration.buttons import distinct_looks
from calibration.catalogue import Catalogue
from calibration.errors import (
    CalibrationError,
    OutOfTimeError,
    PartialBoardError,
    UnknownAppearanceError,
)
from calibration.faces import crop
from calibration.failure_screens import screens_kept_on_failure
from calibration.first_click import first_click_rule, first_opens
from calibration.inference import learn_game
from calibration.meanings import Meanings, board_of, check_counting, lost_board, new_meanings
from calibration.pointer import Pointer
from calibration.record import ClickKind, Evidence, PlayedGame
from calibration.session import CalibrationPlayer, started_anew_on_loss
from calibration.skin_build import build_skin, verify
from calibration.view import QUIET, settled
from solver import GameState, Tile
from solver.bench.progress import progress_bar
from vision.geometry import Rect
from vision.new_game import NewGame
from vision.skin import FACE_STATES, MIN_COMPARED, Image, Skin, board_text
from vision.stable import Grabber

log = logging.getLogger(__name__)

PATIENCE = 30
"""Games in a row that teach nothing new before calibration moves on (or, on the last window,
stops with what it has)."""
PLAYABLE_PATIENCE = 10
"""The same once every :data:`ESSENTIAL` tile is known: what is still missing is rare (a 7 on a
Beginner board), and play learns it (one game at Beginner spent 90 of its 143 s of calibration
waiting 30 games for a 5 it could learn in play)."""
BUDGET = 150.0
"""Seconds of random play at most, over all windows: an Expert board almost never shows a 7 or an
8, so calibration stops with what it has and the play loop learns the rest."""
ESSENTIAL = (Tile.HIDDEN, Tile.FLAG, Tile.EXPLODED, Tile.ZERO, Tile.ONE, Tile.TWO)
"""Without these a skin cannot play: the cells to click, flags, a loss, and the commonest numbers.
Other numbers first seen in play are learned there (see :mod:`calibration.numbers`)."""
SET_ASIDE = 2
"""Games whose boards contradict the rules or the others that calibration sets aside: a lost
board caught in a repaint that outlasts every wait (on a loaded machine: "cell (0, 0) changed
from appearance #15 ... on losing") is one such game. A third stops
calibration (the game is not understood) unless one game learned from is the odd one out: the
games set aside agree with all the others without it."""
MAX_NARROWINGS = 2
"""Times calibration narrows what it compares to a smaller part of the cells, a neighbour
having painted over a band of some (see :func:`calibration.paint.unpainted_box`) or a focus
ring having moved (see :func:`calibration.paint.ring_pixels`)."""
WIN_ATTEMPTS = 6
"""Games the solver plays, per window whose mine count is known, to see the won face."""
WIN_SECONDS = 45.0
"""Seconds of those games at most, per window: a game on a big board takes hundreds of clicks
(a 32x32 board), and play learns the won face when it shows."""
QUIET_WINS = 2
"""Won games showing the face they show in play after which a window is not played to win
any more: the game has no won face of its own (PyMines never says a game is won)."""


@dataclass
class Calibration:
    """The outcome: the skin (possibly incomplete), and what is still missing."""

    skin: Skin
    meanings: Meanings
    games: int
    missing_tiles: list[Tile] = field(default_factory=list)
    missing_faces: list[str] = field(default_factory=list)
    """Face states never seen (none are listed for a game without a face)."""
    marks: int = 0
    """Right-clicks made in the games kept."""
    probes: int = 0
    """Clicks made to tell whether a game went on (see :mod:`calibration.game_end`)."""

    @property
    def complete(self) -> bool:
        return not self.missing_tiles and not self.missing_faces

    @property
    def usable(self) -> bool:
        """Whether the skin can play: it knows every :data:`ESSENTIAL` tile."""
        return not set(ESSENTIAL) & set(self.missing_tiles)

    def describe_missing(self) -> str:
        """One line naming what the games played did not show."""
        parts = []
        if self.missing_tiles:
            parts.append("tiles " + ", ".join(tile.name for tile in self.missing_tiles))
        if self.missing_faces:
            parts.append("faces " + ", ".join(self.missing_faces))
        return "; ".join(parts) or "nothing"

    def advice(self) -> str:
        """What to do about what is missing, from what the games showed: more games, unless no
        cell was ever right-clicked (each game ended before its turn to mark came)."""
        if self.marks or Tile.FLAG not in self.missing_tiles:
            return "try more --max-games, or a board with more mines"
        why = "no cell was ever right-clicked: each game ended before its turn to mark came"
        if self.probes:
            why += (
                f" ({self.probes} clicks were probed, the face showing no picture known for a "
                "game under way; --verbose shows each)"
            )
        return why


def calibrate(
    name: str,
    pointer: Pointer,
    grabber: Grabber,
    windows: Sequence[Rect],
    *,
    mines: Sequence[int | None] = (),
    max_games: int = 40,
    budget: float = BUDGET,
    seed: int | None = None,
    progress: bool | None = None,
    new_game: NewGame | None = None,
    new_game_at: tuple[int, int] | None = None,
) -> Calibration:
    """Learn the skin of the game shown in ``windows`` (screen rectangles, each a fresh game).

    Several windows of one program (for example a sparse and a dense board) pool what they
    show; each is played for up to ``max_games`` random games until no tile is missing, or
    until :data:`PATIENCE` games in a row taught nothing new, or ``budget`` seconds of random
    play (over all windows) are spent. Where the window's number of mines is given (``mines``,
    one per window), the solver then plays to win, to see the won face. ``progress`` counts the
    games on a bar (None: only on a terminal).
    ``new_game`` is how the game starts a new one, when the user knows (else it is found);
    ``new_game_at``, the screen point of a "New game" button beside the board of the one window.
    A :class:`CalibrationError` raised names the folder where the screens the failing judgement
    was made on are saved (:mod:`calibration.failure_screens`).
    """
    if new_game_at is not None and len(windows) != 1:
        raise CalibrationError("a new-game point is for calibrating one window")
    with (
        progress_bar(desc=f"calibrating {name}", unit="game", show=progress) as bar,
        screens_kept_on_failure(pointer, grabber) as witness,
    ):
        learner = _Learner(bar.update, time.monotonic() + budget, new_game=new_game)
        player: CalibrationPlayer | None = None
        for index, window in enumerate(windows):
            learner.mines = mines[index] if index < len(mines) else None
            window_seed = None if seed is None else seed + index
            start = partial(learner.start, witness, witness, window, window_seed)
            player = started_anew_on_loss(start, witness, new_game_at)
            if new_game_at is not None:
                new_games = player.new_games
                learner.new_game = new_games.method = new_games.point_method(new_game_at)
                new_games.point_named = True
                player.window.named_point = new_game_at
            # Boards chosen to show every tile (no budget) are played on to the last one's end.
            patient = index == len(windows) - 1 and math.isinf(budget)
            try:
                learner.play_window(player, max_games, patient)
            except PartialBoardError as error:
                log.warning("%s; calibration starts over on the whole board", error)
                player = learner.on_the_whole_board(player)
                learner.play_window(player, max_games, patient)
            if learner.learned_all:
                break
        if player is None:
            raise CalibrationError("no game window to calibrate")
        return learner.result(name, player)


@dataclass
class _Learner:
    """What the games played so far have taught, pooled over the windows of one program."""

    on_game: Callable[[], object]
    """Called once for every game played."""
    deadline: float
    """The time.monotonic() at which random play stops."""
    meanings: Meanings = field(default_factory=new_meanings)
    faces: dict[GameState, Image] = field(default_factory=dict)
    new_game: NewGame | None = None
    """The way a new game was last started, tried first on the next window."""
    evidence: Evidence | None = None
    played: int = 0
    narrowed: int = 0
    """Times calibration went on comparing a smaller part of the cells (see :meth:`_narrow`)."""
    mines: int | None = None
    """The mine count of the window being played, where the user gave it."""

    def start(
        self, pointer: Pointer, grabber: Grabber, window: Rect, seed: int | None
    ) -> CalibrationPlayer:
        """The player of ``window``, its first game begun, pooling evidence with the others."""
        player = CalibrationPlayer.start(pointer, grabber, window, self.evidence, seed)
        grid = player.view.grid
        if self.mines is not None and self.mines >= grid.rows * grid.columns:
            raise CalibrationError(
                f"{self.mines} mines do not fit in the {grid.rows}x{grid.columns} board in "
                f"window {window}: give that board's mine count with --mines"
            )
        player.new_games.method = self.new_game
        player.mines = self.mines
        for game in player.games:  # the first, begun on finding the board
            game.mines = self.mines
        self.evidence = player.evidence
        self.meanings.catalogue = player.evidence.catalogue
        return player

    @property
    def learned_all(self) -> bool:
        """Every tile has a meaning, and the won face is known (in a game with a face)."""
        return not self.meanings.missing() and (not self.faces or GameState.WON in self.faces)

    def _news(self) -> int:
        """How much is known: any game that raises it taught something."""
        return len(self.meanings.tiles) + len(self.faces)

    def _count_game(self) -> None:
        self.played += 1
        self.on_game()

    def _take_faces(self, player: CalibrationPlayer, launch: bool = False) -> None:
        """Add the face pictures ``player`` has seen; those known already stay as they are.
        A playing face only the launch frame showed waits to be seen in play (a game may draw
        another one then), unless ``launch``: nothing better was seen."""
        seen = dict(player.face_pictures)
        face = player.window.face
        if face is not None and not face.playing_seen and not launch:
            seen.pop(GameState.PLAYING, None)
        self.faces = {**seen, **self.faces}

    def play_at_random(
        self, player: CalibrationPlayer, max_games: int, stop_when_stale: bool = True
    ) -> None:
        """Random games until no tile is missing, ``max_games`` were played, the deadline has
        passed, or (``stop_when_stale``) :data:`PATIENCE` games in a row taught nothing new
        (:data:`PLAYABLE_PATIENCE` once the skin can play)."""
        since_news = 0
        for game_number in range(max_games):
            known = self._news()
            self._learn(player, player.play_game())
            self._count_game()
            self._take_faces(player)
            since_news = 0 if self._news() > known else since_news + 1
            if (
                not self.meanings.missing()
                or game_number == max_games - 1
                or (stop_when_stale and since_news >= self._patience())
                or time.monotonic() >= self.deadline
            ):
                return
            self.new_game = player.start_new_game()

    def play_window(self, player: CalibrationPlayer, max_games: int, patient: bool) -> None:
        """Random games on ``player``'s window (``patient``: not stopped when stale, see
        :meth:`play_at_random`), then, where the mine count is known, games played to win."""
        self.play_at_random(player, max_games, stop_when_stale=not patient)
        if self.mines is not None:
            self.play_to_win(player, self.mines)

    def on_the_whole_board(self, player: CalibrationPlayer) -> CalibrationPlayer:
        """``player``'s window played on with the board found whole
        (:meth:`CalibrationPlayer.on_the_whole_board`), what its part's games taught forgotten."""
        whole = player.on_the_whole_board()
        self._learn_again(whole)
        return whole

    def _learn_again(self, player: CalibrationPlayer) -> None:
        """Learn every game kept so far again, from nothing."""
        self.meanings = new_meanings(player.evidence.catalogue)
        for game in list(player.evidence.games):
            self._learn_one(player, game)

    def _patience(self) -> int:
        """Games in a row that teach nothing before random play moves on."""
        missing = set(self.meanings.missing())
        return PATIENCE if missing & set(ESSENTIAL) else PLAYABLE_PATIENCE

    def _learn(self, player: CalibrationPlayer, game: PlayedGame) -> None:
        """Learn what ``game`` proves, or set it aside, learning nothing from it, if it
        contradicts the rules or the other games (up to :data:`SET_ASIDE` games). A game with a
        click that painted over a band of other cells, or moved a focus ring, first makes
        calibration compare only the rest of each cell (up to :data:`MAX_NARROWINGS` times), in
        every game so far."""
        game.mines = self.mines
        catalogue = player.evidence.catalogue
        steps = game.steps[:-1] if game.state is not GameState.PLAYING else game.steps
        smaller = next((s.unpainted for s in steps if s.painted_past(catalogue.box)), None)
        rings = [s.ring for s in game.steps if s.ring is not None]
        rings = [ring for ring in rings if not catalogue.ignores_all(ring)]
        narrower = None
        if smaller is not None:
            narrower = catalogue.with_box(smaller)
        elif rings:
            narrower = catalogue.ignoring(np.logical_or.reduce(rings))
            mask = narrower.mask
            if mask is not None and mask.mean() < MIN_COMPARED:
                log.info("a focus ring would leave too little of each cell compared")
                narrower = None
        if narrower is not None and self.narrowed < MAX_NARROWINGS:
            self._narrow(player, narrower)
        else:
            self._learn_one(player, game)

    def _learn_one(self, player: CalibrationPlayer, game: PlayedGame) -> None:
        trial = self.meanings.copy()
        try:
            learn_game(trial, game, player.evidence.safe_appearances)
        except CalibrationError as error:
            evidence = player.evidence
            evidence.set_game_aside(game)
            if len(evidence.set_aside) > SET_ASIDE:
                if self._outvote(evidence):
                    return
                raise
            log.warning("calibration set a game aside: %s", error)
            return
        self.meanings = trial

    def _outvote(self, evidence: Evidence) -> bool:
        """Whether one game learned from is the odd one: without it, every game set aside
        agrees with all the others (a board caught mid-repaint early on makes every later
        loss look wrong). It is then set aside in their stead, and they are learned."""
        safe = evidence.safe_appearances
        for number, odd in enumerate(evidence.games, start=1):
            trial = new_meanings(evidence.catalogue)
            try:
                for game in evidence.games + evidence.set_aside:
                    if game is not odd:
                        learn_game(trial, game, safe)
            except CalibrationError:
                continue
            log.warning(
                "calibration set aside game %d of those learned from: the %d games set aside "
                "agree with all the others without it (outvoted)",
                number,
                len(evidence.set_aside),
            )
            evidence.take_back_instead_of(odd)
            self.meanings = trial
            return True
        return False

    def _narrow(self, player: CalibrationPlayer, catalogue: Catalogue) -> None:
        """Read with ``catalogue`` from now on, which compares a smaller part of each cell's
        picture: a click of the game painted over the rest of some cells beside those it opened,
        or moved a focus ring. Every game so far is read and learned again that way (forgetting
        them left nothing learned when it happened in the last games of a calibration)."""
        games = player.evidence.games
        ringed = 0 if catalogue.ignored is None else int(catalogue.ignored.sum())
        log.warning(
            "calibration compares only the part %s of each cell%s from now on, and reads its "
            "%d games again",
            catalogue.box,
            f" less the {ringed} pixels a focus ring takes" if ringed else "",
            len(games),
        )
        player.read_with(catalogue)
        self.narrowed += 1
        self._learn_again(player)

    def play_to_win(self, player: CalibrationPlayer, mines: int) -> None:
        """Up to :data:`WIN_ATTEMPTS` games played by the solver, until one shows the won face
        (in a window whose face was found) and, where a new game is a click on a point the user
        named, until that point has started a new game after a won one (the button there may
        show how the game ended)."""
        deadline = time.monotonic() + WIN_SECONDS
        for _ in range(WIN_ATTEMPTS):
            if not self._wants_win(player) or time.monotonic() > deadline:
                return
            stuck = player.stuck_mid_game
            try:
                self.new_game = player.start_new_game()
            except CalibrationError as error:
                if not stuck:
                    raise
                log.info("no more games played to win: %s", error)
                return
            self._count_game()
            try:
                game = player.play_to_win(self.meanings, mines, deadline)
                self._learn(player, game)
            except (UnknownAppearanceError, OutOfTimeError) as error:
                log.info("stopped a game played to win: %s", error)
            else:
                if game.state is GameState.WON and player.wants_button_after_win:
                    self.new_game = player.start_new_game()  # its button as the win left it
            self._take_faces(player)

    def _wants_win(self, player: CalibrationPlayer) -> bool:
        """Whether a won game would teach something: the face it shows, or how the new-game
        button looks after it."""
        if player.wants_button_after_win:
            return True
        if player.window.face is None or GameState.WON in self.faces:
            return False
        if player.judge.wins_without_face >= QUIET_WINS:
            log.info("%d won games kept the face they show in play", QUIET_WINS)
            return False
        return True

    def _fresh_board_left(self, player: CalibrationPlayer) -> bool:
        """Start a new game on ``player``'s window; whether one started."""
        try:
            self.new_game = player.start_new_game()
        except CalibrationError as error:
            log.info("no fresh game left on the window: %s", error)
            return False
        return True

    def _verify(self, skin: Skin, player: CalibrationPlayer, fresh: bool) -> bool:
        """Check ``skin`` on the board ``player``'s window shows now, when every tile it shows is
        learned (see :func:`~calibration.skin_build.verify`); whether a new game was started
        (``fresh``: one was already)."""
        view = player.view
        # Once it holds still: a game left as a new one was starting may still be drawing it.
        frame = settled(view.grabber, view.window, None)
        try:
            shown = board_of(view.board_ids(crop(frame, view.board_in_window)), self.meanings)
        except UnknownAppearanceError:
            log.info("the board on the screen shows a tile not learned: not verified")
            return fresh

        def new_game_frame() -> Image | None:
            nonlocal fresh
            fresh = fresh or self._fresh_board_left(player)
            return settled(view.grabber, view.window, None) if fresh else None

        verify(skin, view.window, frame, shown, new_game_frame)
        return fresh

    def result(self, name: str, player: CalibrationPlayer) -> Calibration:
        """The skin learned, checked against every board seen and, when every tile it shows is
        learned, against the board ``player`` shows now as vision reads it."""
        meanings = self.meanings
        _check_all_boards(player.evidence.games, meanings)
        self._take_faces(player, launch=True)
        faces = {state.value: picture for state, picture in self.faces.items()}
        new_game = self.new_game or NewGame("key", "f2")
        uneven = player.view.grid.edges is not None
        skin = build_skin(name, player.evidence, meanings, faces, new_game, uneven)
        view = player.view
        fresh = False
        if view.relayout is not None:
            skin.extra["relayout"] = True
            # Vision locates a board by its cells' fresh places: only a fresh one shows them.
            fresh = self._fresh_board_left(player)
        fresh = self._verify(skin, player, fresh)
        # Leave a fresh board: the one a game ended on may show tiles not learned yet, and then
        # play could not find the board by the skin. The way that worked goes into the skin.
        if fresh or self._fresh_board_left(player):
            skin = replace(skin, new_game=self.new_game or skin.new_game)
        if skin.new_game.at is not None:
            skin = replace(skin, buttons=distinct_looks(player.new_games.buttons, skin.threshold))
        missing_faces = sorted(set(FACE_STATES) - set(faces)) if faces else []
        rule = first_click_rule(first_opens(player.evidence.games, meanings))
        if rule is not None:
            skin.extra["first_click"] = rule.value
        if player.window.quiet > QUIET:  # the game animates what a click opens
            skin.extra["animation_still"] = player.window.quiet
        if self.mines is not None:
            skin.extra["board"] = board_text(view.grid.rows, view.grid.columns, self.mines)
        evidence = player.evidence
        marks = sum(
            step.click is ClickKind.MARK
            for game in evidence.games + evidence.set_aside
            for step in game.steps
        )
        missing = meanings.missing()
        return Calibration(
            skin, meanings, self.played, missing, missing_faces, marks, evidence.probes
        )


def _check_all_boards(games: list[PlayedGame], meanings: Meanings) -> None:
    """Every board seen, read with the learned meanings, must obey the counting rules."""
    known = set(meanings.readable())
    for number, game in enumerate(games, start=1):
        for index, step in enumerate(game.steps, start=1):
            if set(np.unique(step.after).tolist()) <= known:
                lost = game.state is GameState.LOST and index == len(game.steps)
                board = lost_board(step, meanings) if lost else board_of(step.after, meanings)
                check_counting(board, f"game {number}, after click {index} (on {step.cell})")
