"""workers= semantics (as in scipy.fft) and the single-thread cut-off."""
from __future__ import annotations

import os

from ntt_cy._checks import as_int

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


def resolve_workers(workers) -> int:
    """None or -1: all cores; k > 0: exactly k; 0 or < -1: ValueError."""
    if workers is None:
        return cpu_count()
    workers = as_int(workers, "workers")
    if workers == -1:
        return cpu_count()
    if workers <= 0:
        raise ValueError(f"workers must be a positive integer, None or -1, got {workers}")
    if workers > MAX_WORKERS:
        raise ValueError(f"workers = {workers} is too large (at most {MAX_WORKERS})")
    return workers


def check_workers(workers) -> None:
    """resolve_workers' checks without counting cores (None needs no core count)."""
    if workers is not None:
        resolve_workers(workers)


def effective_threads(workers, elements: int) -> int:
    """Threads to use for a job touching `elements` values."""
    if elements < PARALLEL_MIN_ELEMENTS:
        check_workers(workers)   # validated all the same
        return 1
    return resolve_workers(workers)
