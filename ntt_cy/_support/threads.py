"""workers= semantics (scipy.fft's, except that counts below -1 are refused) and the
single-thread cut-off."""
from __future__ import annotations

import os

from ntt_cy._support.checks import as_int, is_integer

# More threads than this is a mistake, not a request (OpenMP would try to start them).
MAX_WORKERS = 1024

# Below this many butterflies per call, one thread is used whatever `workers` says:
# the OpenMP fork/join (a few microseconds) would cost more than it saves.
PARALLEL_MIN_ELEMENTS = 1 << 13


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


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


def requested_workers(workers) -> int:
    """None or -1: all cores; k > 0: exactly k; 0 or < -1: ValueError.  What the caller
    asked for, validated; kernels take resolve_workers' count instead."""
    if workers is None:
        return cpu_count()
    workers = as_int(workers, "workers")
    if workers == 0 or workers < -1:
        raise ValueError(f"workers must be a positive integer, None or -1, got {workers}")
    if workers > MAX_WORKERS:
        raise ValueError(f"workers = {workers} is too large (at most {MAX_WORKERS})")
    return cpu_count() if workers == -1 else workers


def resolve_workers(workers) -> int:
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


def check_workers(workers) -> None:
    """resolve_workers' checks without counting cores (None needs no core count)."""
    if workers is None or type(workers) is int and 0 < workers <= MAX_WORKERS:
        return   # the common cases at a fraction of requested_workers' cost (small calls)
    requested_workers(workers)


def check_thread_count(threads) -> None:
    """A kernel's thread count (what resolve_workers gives): an int in [1, MAX_WORKERS],
    else ValueError (OpenMP takes any count it is given, and 0 divides)."""
    if not is_integer(threads) or not 1 <= threads <= MAX_WORKERS:
        raise ValueError(f"threads must be an integer from 1 to {MAX_WORKERS}, got {threads!r}")


def effective_threads(workers, elements: int) -> int:
    """Threads to use for a job touching `elements` values."""
    if elements < PARALLEL_MIN_ELEMENTS:
        check_workers(workers)   # validated all the same
        return 1
    return resolve_workers(workers)
