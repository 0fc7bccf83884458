"""How long calibration waits on a game, in one place: code reads these as ``waits.NAME`` when
it waits, so a test (or a user tuning a slow machine) sets them here once for every module."""

DOUBLE_CLICK_GAP = 0.6
"""Seconds between two clicks on one cell so they are not taken as a double-click."""
FLASH_QUIET = 0.5
"""Seconds a board that changed in every cell at once must then hold still before it is read:
a game that flashes its board on a game's end changes frames every 0.13 s for about 0.4 s."""
LOST_QUIET = 1.0
"""Seconds a lost board must stay unchanged before its final read: a game repaints every cell
on a loss, and a busy machine can pause it in the middle of that for longer than
:data:`calibration.view.QUIET` (0.4 s still let a fresh-clone CI run read a half-repainted loss
in 1 of 6 full runs)."""
MESSAGE_WAIT = 5.0
"""Seconds a lost board is watched for a message over it to go (a "You have lost." written over
the board for four seconds)."""
KEY_TIMEOUT = 1.5
"""Seconds a new-game key (or a click on a tile that may be no hidden one) is given to act."""
REDRAW_TIMEOUT = 5.0
"""Seconds a board gone blank after a new-game action is given to show again: a game that opens
a new window for each new game takes the old one's board down first."""
ANIMATION_WATCH = 0.3
"""Seconds a board is watched after a click that opened several cells has settled, until the
game has shown whether it animates what a click opens (a ring of cells at a time, each ring a
frame apart); a game seen to animate is given as long to hold still after every click."""
MENU_WAIT = 10.0
"""Seconds a game whose end took its board away is given to show the button that brings a
board back (a game may write its end over the window for five seconds first)."""
