"""Memory limits: a large call's peak memory, estimated before it allocates, against
what this process may still use.

A transform or product whose temporaries each fit but together do not would otherwise
grow until the kernel's OOM killer ends the process.  Calls estimate their peak (the
arrays they allocate, and the twiddle tables they build) and check_memory raises
MemoryError, naming the bytes, when it exceeds the limit: the bytes set by
set_memory_limit, else the memory available now (available_memory).  Estimates below
CHECK_FROM_BYTES are not compared with the available memory, whose reading costs a few
microseconds (a file read); they are compared with a limit set by set_memory_limit.
"""
from __future__ import annotations

import os

from ntt_cy._typing import Integer

__all__ = ["set_memory_limit", "get_memory_limit", "available_memory", "check_memory",
           "settings"]

CHECK_FROM_BYTES = 64 << 20


class _Settings:
    """The process-wide limit.  check_from: the estimates worth check_memory's call
    (CHECK_FROM_BYTES, or 0 under a set limit), for callers that gate the estimate
    itself behind a cheap upper bound of it (a small call then pays one comparison)."""
    limit: int | None = None   # set_memory_limit's bytes, or None
    check_from: int = CHECK_FROM_BYTES


settings = _Settings()


def set_memory_limit(nbytes: Integer | None) -> None:
    """Set the memory a single ntt_cy call may plan to use, process-wide.

    Calls estimate their peak memory (the arrays they allocate and the twiddle tables
    they build) before they allocate, and raise MemoryError naming the bytes needed
    when it exceeds the limit.  By default the limit is the memory available when the
    call starts (:func:`get_memory_limit`).

    Parameters
    ----------
    nbytes : int or None
        The limit in bytes (>= 0); None restores the default.

    Raises
    ------
    ValueError
        A negative limit.
    TypeError
        A limit that is neither an integer nor None.

    See Also
    --------
    get_memory_limit : The limit in force.

    Examples
    --------
    >>> import numpy as np, ntt_cy
    >>> ntt_cy.set_memory_limit(1 << 19)
    >>> try:
    ...     ntt_cy.ntt(np.zeros((64, 1 << 12), np.uint32), 998244353)
    ... except MemoryError as exc:
    ...     print(str(exc).split(" needs")[0])
    a transform of shape (64, 4096) on uint32 lanes
    >>> ntt_cy.set_memory_limit(None)
    """
    if nbytes is None:
        settings.limit, settings.check_from = None, CHECK_FROM_BYTES
        return
    from ntt_cy._support.checks import as_int

    nbytes = as_int(nbytes, "nbytes")
    if nbytes < 0:
        raise ValueError(f"nbytes must be >= 0 or None, got {nbytes}")
    settings.limit, settings.check_from = nbytes, 0


def get_memory_limit() -> int | None:
    """The bytes a single ntt_cy call may plan to use.

    The limit of :func:`set_memory_limit`, else the memory this process can allocate
    now without swapping: the least of the machine's available memory, what its
    memory cgroup and its address-space limit (``ulimit -v``) still allow.

    Returns
    -------
    int or None
        Bytes; None when neither a limit is set nor the available memory can be read.

    See Also
    --------
    set_memory_limit : Set the limit.

    Examples
    --------
    >>> import ntt_cy
    >>> ntt_cy.get_memory_limit() > 0
    True
    >>> ntt_cy.set_memory_limit(1 << 30)
    >>> ntt_cy.get_memory_limit()
    1073741824
    >>> ntt_cy.set_memory_limit(None)
    """
    return settings.limit if settings.limit is not None else available_memory()


def _meminfo_available() -> int | None:
    """MemAvailable of /proc/meminfo (the kernel's estimate of what can be allocated
    without swapping), in bytes."""
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _read_int(path: str) -> int | None:
    try:
        with open(path, "rb") as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None   # ("max": no limit)


def _cgroup_room() -> int | None:
    """What the memory cgroup (v2, else v1) still allows, or None without a limit."""
    for limit_path, usage_path in (
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
             "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        limit = _read_int(limit_path)
        if limit is not None and limit < 1 << 60:   # (v1 writes "no limit" as ~2^63)
            usage = _read_int(usage_path) or 0
            return max(limit - usage, 0)
    return None


def _address_space_room() -> int | None:
    """What RLIMIT_AS (ulimit -v) still allows this process to map, or None."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmSize:"):
                    return max(soft - int(line.split()[1]) * 1024, 0)
    except (ImportError, OSError, ValueError, IndexError):
        pass
    return None


def available_memory() -> int | None:
    """The bytes this process can allocate now without swapping: the least of the
    machine's available memory (MemAvailable, or psutil where /proc is missing), what
    its memory cgroup and its address-space limit (ulimit -v) still allow; None when
    none of them can be read."""
    found = [_meminfo_available(), _cgroup_room(), _address_space_room()]
    if found[0] is None:
        try:
            import psutil

            found[0] = int(psutil.virtual_memory().available)
        except Exception:   # noqa: BLE001 - psutil absent or failing: one source less
            pass
    known = [v for v in found if v is not None]
    return min(known) if known else None


def _size(nbytes: int) -> str:
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 1 << shift:
            return f"{nbytes / (1 << shift):.1f} {unit}"
    return f"{nbytes} bytes"


def check_memory(nbytes: int, what: str, *values: object) -> None:
    """MemoryError when a call needs more than the limit: nbytes is its estimated peak,
    what.format(*values) the call in words (formatted only for the error: small calls
    pay no formatting)."""
    limit: int | None
    if settings.limit is not None:
        limit, source = settings.limit, "the limit set by ntt_cy.set_memory_limit"
    elif nbytes >= CHECK_FROM_BYTES:
        limit, source = available_memory(), "the memory available"
    else:
        return
    if limit is not None and nbytes > limit:
        raise MemoryError(
            f"{what.format(*values)} needs about {_size(nbytes)} ({nbytes} bytes), more than {source} "
            f"({_size(limit)}); ntt_cy.set_memory_limit(bytes) sets another limit")
