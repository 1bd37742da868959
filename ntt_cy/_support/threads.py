"""workers= as scipy.fft takes it, the thread default (get_workers, set_workers), and the
single-thread cut-off.

workers=k > 0 asks for exactly k threads; -k counts back from the CPUs this process may
use (-1 all of them, -2 all but one); None takes get_workers(): the count set_workers
set on this thread, else the OpenMP runtime's own limit for it.  That limit is
OMP_NUM_THREADS where it was set when the runtime loaded (a Dask worker's nanny sets it
to 1), else the CPUs of this process's affinity mask, lowered by
threadpoolctl.threadpool_limits or omp_set_num_threads since.
"""
from __future__ import annotations

import os
import threading
from types import TracebackType
from typing import Literal

from ntt_cy._support.checks import as_int, is_integer
from ntt_cy._support.openmp_runtime import max_threads
from ntt_cy._typing import Integer

__all__ = ["get_workers", "set_workers"]

# More threads than this is a mistake, not a request (OpenMP would try to start them).
MAX_WORKERS = 1024

# Below this many butterflies per call, one thread is used whatever `workers` says:
# the OpenMP fork/join (a few microseconds) would cost more than it saves.
PARALLEL_MIN_ELEMENTS = 1 << 13


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask), what -k counts back from."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


class _ThreadSettings(threading.local):
    """This thread's set_workers count (the class attribute None: none set), read as
    one attribute lookup (a missing attribute of a threading.local costs ~0.5 us)."""
    workers: int | None = None


_settings = _ThreadSettings()


def get_workers() -> int:
    """The number of threads ``workers=None`` gives on this thread.

    The count of the innermost :func:`set_workers` block of this thread; outside any,
    the OpenMP runtime's thread limit for this thread: ``OMP_NUM_THREADS`` where it was
    set when the runtime loaded (at ``import ntt_cy``), else the CPUs this process may
    use, lowered by ``threadpoolctl.threadpool_limits`` (or ``omp_set_num_threads``)
    while such a limit holds; 1 in a build without OpenMP.  At most 1024.

    Returns
    -------
    int
        The thread count, at least 1.

    See Also
    --------
    set_workers : Set the count for a block.

    Examples
    --------
    >>> import ntt_cy
    >>> with ntt_cy.set_workers(2):
    ...     ntt_cy.get_workers()
    2
    >>> 1 <= ntt_cy.get_workers() <= 1024
    True
    """
    count = _settings.workers
    if count is not None:
        return count
    limit = max_threads()   # (0 without OpenMP)
    return 1 if limit < 1 else min(limit, MAX_WORKERS)


class set_workers:
    """Context manager: the default thread count (``workers=None``) within the block,
    on this thread only (as :func:`scipy.fft.set_workers`).

    Parameters
    ----------
    workers : int or None
        A count as ``workers=`` takes it: k > 0 exactly k threads, -k counting back from
        the CPUs this process may use (-1 all of them, -2 all but one); None restores the
        default of :func:`get_workers` outside any block.

    Raises
    ------
    ValueError
        A count of 0, above 1024, or below minus the usable CPUs.
    TypeError
        A count that is not an integer.

    See Also
    --------
    get_workers : The count in force.

    Notes
    -----
    Blocks nest; each thread has its own count, so a block in one thread leaves the
    others' calls as they were.  A negative count is resolved when set_workers is
    called (-1: the CPUs usable then).

    Examples
    --------
    >>> import os, numpy as np, ntt_cy
    >>> with ntt_cy.set_workers(1):
    ...     A = ntt_cy.ntt(np.arange(1 << 14) % 7, 998244353)   # one thread
    >>> with ntt_cy.set_workers(-1):   # every CPU this process may use
    ...     ntt_cy.get_workers() == len(os.sched_getaffinity(0))
    True
    """

    def __init__(self, workers: Integer | None) -> None:
        self._count = None if workers is None else requested_workers(workers)
        self._saved: list[int | None] = []

    def __enter__(self) -> set_workers:
        self._saved.append(_settings.workers)
        _settings.workers = self._count
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> Literal[False]:
        _settings.workers = self._saved.pop()
        return False


# libgomp's thread pool does not survive fork(): the child inherits the pool's
# bookkeeping but not its threads, and its first parallel region with more than one
# thread waits for them forever (GCC bug 60035; multiprocessing's default start method
# on Linux forks).  So once this process may have started OpenMP threads (some call
# resolved to more than one), a child forked from it runs every kernel on one thread,
# as do its own children.  A child of a process that never asked for threads keeps them.
_threads_requested = False
_single_thread_after_fork = False


def _note_fork_in_child() -> None:
    global _single_thread_after_fork
    _single_thread_after_fork = _single_thread_after_fork or _threads_requested


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_note_fork_in_child)


def forked_single_thread() -> bool:
    """Whether this process is a fork of one that may have started OpenMP threads, so
    its kernels run on one thread whatever `workers` says."""
    return _single_thread_after_fork


def requested_workers(workers: Integer | None) -> int:
    """The count `workers` asks for: None get_workers(); k > 0 exactly k (at most
    MAX_WORKERS); -k the usable CPUs + 1 - k, for 1 <= k <= the usable CPUs; anything
    else ValueError (TypeError for non-integers).  Kernels take resolve_workers' count
    instead."""
    if workers is None:
        return get_workers()
    workers = as_int(workers, "workers")
    if workers > MAX_WORKERS:
        raise ValueError(f"workers = {workers} is too large (at most {MAX_WORKERS})")
    if workers > 0:
        return workers
    cores = cpu_count()
    if workers == 0 or workers < -cores:
        raise ValueError(
            f"workers = {workers} is out of range: a count from 1 to {MAX_WORKERS}, or "
            f"-1 to -{cores} to count back from the {cores} usable CPUs (-1: all of them), "
            f"or None (get_workers())")
    return cores + 1 + workers


def resolve_workers(workers: Integer | None) -> int:
    """The threads a kernel call runs on: requested_workers' count, or 1 in a child
    forked after threads may have started (see _note_fork_in_child).  Only counts
    that reach a kernel should come from here: a count above 1 marks this process."""
    global _threads_requested
    count = requested_workers(workers)
    if count > 1:
        if _single_thread_after_fork:
            return 1
        _threads_requested = True
    return count


def check_workers(workers: Integer | None) -> None:
    """requested_workers' checks without counting CPUs where none is needed."""
    if workers is None or type(workers) is int and 0 < workers <= MAX_WORKERS:
        return   # the common cases at a fraction of requested_workers' cost (small calls)
    requested_workers(workers)


def check_thread_count(threads: object) -> None:
    """A kernel's thread count (what resolve_workers gives): an int in [1, MAX_WORKERS],
    else ValueError (OpenMP takes any count it is given, and 0 divides)."""
    if not is_integer(threads) or not 1 <= threads <= MAX_WORKERS:
        raise ValueError(f"threads must be an integer from 1 to {MAX_WORKERS}, got {threads!r}")


def effective_threads(workers: Integer | None, elements: int) -> int:
    """Threads to use for a job touching `elements` values."""
    if elements < PARALLEL_MIN_ELEMENTS:
        check_workers(workers)   # validated all the same
        return 1
    return resolve_workers(workers)
