"""python-xlib connections: opened quietly, closed safely, never broken by a stop signal, and a
display that went away as one error.

python-xlib keeps a connection's state in Python objects (who reads the socket, which requests
wait for replies). An exception raised by a signal handler in the middle of a request leaves
that state half changed, and the next request on the connection waits for ever: a SIGTERM as a
click was sent once left the bot spinning for 14 minutes. So a stop handler asks
:func:`x_request_under_way` first and lets the request finish (see
:mod:`controller.stopping`); one that does not finish in time is abandoned with
:func:`abandon_x_request`, which closes its connection so that nothing waits on it again.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

from controller.errors import DisplayLostError, WindowError


@contextlib.contextmanager
def quiet_xlib() -> Iterator[None]:
    """Keep python-xlib's notes off standard output while it connects: it prints one for every
    connection whose authority file holds no entry (an empty file, as a display that asks for no
    cookie is given), which would fill the bot's own output. Standard output is the process's:
    what another thread prints meanwhile is lost, so connections are opened from one thread."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def open_x_display(display: str | None) -> Any:
    """A python-xlib connection to ``display`` (default: DISPLAY), without its notes (see
    :func:`quiet_xlib`); python-xlib's errors pass through for the caller to name."""
    from Xlib import display as xdisplay

    with quiet_xlib():
        return xdisplay.Display(display)


@contextlib.contextmanager
def x_requests(display: str | None, connection: Any) -> Iterator[None]:
    """Requests on ``connection`` to ``display`` (default: DISPLAY); a connection the server
    closed is a :class:`DisplayLostError` (see :func:`display_lost`), and ``connection`` is
    marked closed."""
    try:
        yield
    except Exception as error:
        lost = display_lost(error, display)
        if lost is None:
            raise
        if is_open(connection):
            connection.display.close_internal(f"server: {lost}")
        raise lost from None


def display_lost(error: BaseException, display: str | None = None) -> DisplayLostError | None:
    """``error`` as a :class:`DisplayLostError` naming ``display`` (default: DISPLAY), if it is
    python-xlib's way of saying that the X server closed the connection; else None."""
    xlib_errors = sys.modules.get("Xlib.error")
    if xlib_errors is None or not _raised_in_xlib(error):
        return None
    # python-xlib 0.33 formats a failed send with ``err[1]``: a TypeError over the OSError
    cause = error.__context__ if isinstance(error, TypeError) else error
    if not isinstance(cause, xlib_errors.ConnectionClosedError | OSError):
        return None
    where = display or os.environ.get("DISPLAY") or "?"
    return DisplayLostError(f"lost the X display {where}: {cause}")


@contextlib.contextmanager
def x_connection(display: str | None, purpose: str) -> Iterator[Any]:
    """A python-xlib connection to ``display`` (default: DISPLAY) for its requests (see
    :func:`x_requests`), closed afterwards; a display that cannot be opened is a
    :class:`WindowError` saying what it was opened to do."""
    from Xlib.error import DisplayError, XauthError

    where = display or os.environ.get("DISPLAY") or ""
    try:
        connection = open_x_display(where)
    except (DisplayError, XauthError) as error:
        raise WindowError(f"cannot {purpose} display {where}: {error}") from error
    try:
        with x_requests(where, connection):
            yield connection
    finally:
        close_x_display(connection)


def is_open(connection: Any) -> bool:
    """Whether requests can still be sent on ``connection`` (neither end closed it)."""
    return connection.display.socket_error is None


def close_x_display(connection: Any) -> None:
    """Close ``connection``, if it is open: closing one the server or a stop already closed
    would raise again, over the error that closed it."""
    if is_open(connection):
        with contextlib.suppress(OSError, _connection_closed()):
            connection.close()


def x_request_under_way(frame: FrameType | None) -> FrameType | None:
    """The frame that called python-xlib, if the code interrupted at ``frame`` (a signal
    handler's) is inside it: python-xlib's state is whole again when the call returns there."""
    caller = None
    for xlib_frame in _xlib_frames(frame):
        caller = xlib_frame.f_back
    return caller


def abandon_x_request(frame: FrameType | None) -> None:
    """Close the connection of the python-xlib request interrupted at ``frame``, so that nothing
    waits on it again: an exception is about to leave that request half done."""
    for xlib_frame in _xlib_frames(frame):
        owner = xlib_frame.f_locals.get("self")
        for connection in (
            owner,
            getattr(owner, "display", None),
            getattr(owner, "_display", None),
        ):
            close = getattr(connection, "close_internal", None)  # python-xlib's protocol level
            if close is not None:
                close("client: a stop request abandoned a request")
                return


def _raised_in_xlib(error: BaseException) -> bool:
    """Whether ``error`` was raised by python-xlib's own code (its socket), not the caller's."""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    return trace is not None and _in_xlib(trace.tb_frame)


def _xlib_frames(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        if _in_xlib(frame):
            yield frame
        frame = frame.f_back


def _in_xlib(frame: FrameType) -> bool:
    return str(frame.f_globals.get("__name__", "")).startswith("Xlib.")


def _connection_closed() -> type[Exception]:
    from Xlib.error import ConnectionClosedError

    closed: type[Exception] = ConnectionClosedError  # Xlib has no type information
    return closed
