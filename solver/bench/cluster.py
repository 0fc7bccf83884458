"""The benchmark's chunks of games played on a Dask distributed cluster, for runs that outgrow
one machine.

:func:`connect` reaches a running scheduler (``dask scheduler``, with ``dask worker`` processes
joined to it) and checks that every worker plays the same games as this machine would: the same
autosweeper version and byte for byte the same solver source, since a run is only repeatable
(and two runs comparable game for game) if the code that decides the games is the same. It
returns a :class:`concurrent.futures.Executor`, so :func:`solver.bench.run.run_benchmark` plays
its chunks on it exactly as on a local process pool.

This module imports dask, which takes about half a second: it is imported only when a cluster
address is given.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import functools
import hashlib
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from distributed import Client, Future
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.comm.core import connect as comm_connect
from distributed.scheduler import KilledWorker

from solver.errors import BenchError

_P = ParamSpec("_P")
_T = TypeVar("_T")

CONNECT_TIMEOUT = 5.0
"""Seconds to reach the scheduler, and then to find at least one worker there."""

_SOLVER = Path(__file__).resolve().parents[1]


@functools.cache
def code_identity() -> tuple[str, str]:
    """This process's autosweeper version and a digest of its ``solver`` package's source: what
    decides the games (the version alone does not change between commits)."""
    try:
        installed = version("autosweeper")
    except PackageNotFoundError:
        installed = "not installed"
    digest = hashlib.sha256()
    for path in sorted([*_SOLVER.rglob("*.py"), *_SOLVER.rglob("*.pyx")]):
        digest.update(path.relative_to(_SOLVER).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return installed, digest.hexdigest()[:12]


class ClusterPool(cf.Executor):
    """A connected cluster as an executor: each submitted call runs as one task on some worker.

    A failure of the cluster itself (a worker killed again and again, the scheduler lost) comes
    back as a one-line :class:`BenchError`; what a task raises comes back as it was raised.
    """

    def __init__(self, client: Client, address: str) -> None:
        self.client = client
        self.address = address
        self._futures: list[Future[Any]] = []
        """This run's tasks, whatever each returns."""

    @property
    def threads(self) -> int:
        """How many tasks the workers run at once (their threads, summed)."""
        threads: dict[str, int] = self.client.nthreads()  # by worker address
        return max(1, sum(threads.values()))

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> cf.Future[_T]:
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        self._futures.append(task)
        relayed: cf.Future[_T] = cf.Future()
        task.add_done_callback(functools.partial(self._relay, relayed))
        return relayed

    def _relay(self, relayed: cf.Future[_T], task: Future[_T]) -> None:
        try:
            relayed.set_result(task.result())
        except (KilledWorker, cf.CancelledError, OSError) as error:
            relayed.set_exception(
                BenchError(
                    f"the cluster at {self.address} failed a chunk of games "
                    f"({type(error).__name__}: {error})"
                )
            )
        except BaseException as error:  # the task's own error (a BenchError...), as it was
            relayed.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Disconnect; with ``cancel_futures``, first take this run's unfinished tasks off the
        cluster (it is shared: an interrupted run must not leave work queued there)."""
        if cancel_futures:
            self.client.cancel([task for task in self._futures if not task.done()])
        self.client.close()


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> ClusterPool:
    """The cluster whose scheduler is at ``address`` (``tcp://host:8786``), once its workers are
    found to run the same code as this machine; :class:`BenchError` in one line if it cannot be
    reached within ``timeout`` seconds, has no worker, or a worker's code differs."""
    _check_reachable(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot connect to the cluster at {address}: {error}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise BenchError(
                f"the cluster at {address} has no worker (none joined within {timeout:g} s)"
            ) from None
        _check_workers(client, address)
    except BaseException:
        client.close()
        raise
    return ClusterPool(client, address)


def _check_reachable(address: str, timeout: float) -> None:
    """Refuse at once an address that is not ``tcp://HOST:PORT`` (TLS and the other protocols
    need settings this command does not take) or where nothing listens (the client would retry
    until its timeout), and within ``timeout`` one where no scheduler answers: the client itself
    waits for a listener's answer without end."""
    try:
        protocol, location = parse_address(address)
        host, port = parse_host_port(location)
        if protocol != "tcp":
            raise ValueError(f"protocol {protocol!r}")
    except ValueError as error:
        raise BenchError(
            f"{address!r} is not a cluster address like tcp://HOST:8786 ({error})"
        ) from None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
        with ThreadPoolExecutor(1) as thread:  # its own event loop, whoever runs this one
            thread.submit(asyncio.run, _handshake(address, timeout)).result()
    except OSError as error:  # TimeoutError included
        reason = "no answer" if isinstance(error, TimeoutError) else error.strerror or error
        raise BenchError(f"cannot reach the cluster at {address}: {reason}") from None


async def _handshake(address: str, timeout: float) -> None:
    """Open and close a connection to the scheduler at ``address``, handshake included."""
    comm = await asyncio.wait_for(comm_connect(address, timeout=timeout), timeout)
    await comm.close()


def _check_workers(client: Client, address: str) -> None:
    """Refuse a cluster with a worker whose autosweeper or solver source differs from ours."""
    ours = code_identity()
    theirs = client.run(code_identity, on_error="return")
    for worker, identity in sorted(theirs.items()):
        if identity != ours:
            raise BenchError(
                f"worker {worker} of the cluster at {address} runs {_describe(identity)}, this "
                f"machine {_describe(ours)}: install the same autosweeper on every worker"
            )


def _describe(identity: tuple[str, str] | BaseException) -> str:
    if isinstance(identity, BaseException):
        return f"no usable autosweeper ({type(identity).__name__}: {identity})"
    installed, digest = identity
    return f"autosweeper {installed} (solver source {digest})"
