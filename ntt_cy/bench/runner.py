"""Runs every case through every library: answers checked against ntt_cy's, samples
interleaved.

For each case, each installed library that runs it is prepared once per thread count
(conversions untimed), its first answer is put in the common form and compared with the
first library's (ntt_cy's), and a Sampler (timing.py) is made.  The samples are then
taken round by round, one of every library and thread count per round, the order
reversed every other round, so a change in the machine's load during the case reaches
every library alike and the ratios are measured side by side.  A library that is not
installed, skips the case, fails or disagrees gets a Row saying so; nothing here raises
for a competitor.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ntt_cy.bench import libraries as known_libraries
from ntt_cy.bench.cases import Case
from ntt_cy.bench.timing import Sampler

__all__ = ["Row", "run", "thread_counts", "load_warning", "answers_equal",
           "first_difference"]


@dataclass
class Row:
    """One library on one case: its status, its Timing per thread count, a mismatch."""
    case: Case
    library: str
    version: str
    status: str                                   # "ok", "not installed", "skipped: ...", ...
    times: dict = field(default_factory=dict)     # threads -> Timing
    mismatch: str | None = None
    multithreaded: bool = False                   # timed at every thread count


def first_difference(x, y) -> str:
    """Where the answer y first differs from the reference x, in words."""
    if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
        if x.shape != y.shape:
            return f"shape {y.shape} != {x.shape}"
        i = np.flatnonzero(x.ravel() != y.ravel())[0]
        return f"index {i}: {int(y.ravel()[i])} != {int(x.ravel()[i])}"
    if isinstance(x, int) and isinstance(y, int):
        return f"integers differ (bit lengths {y.bit_length()} vs {x.bit_length()})"
    return f"{type(y).__name__} result vs {type(x).__name__}"


def answers_equal(x, y) -> bool:
    """Two answers in the common form are the same (arrays: same shape and values)."""
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        return (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
                and x.shape == y.shape and bool(np.array_equal(x, y)))
    return x == y


def load_warning(cores: int) -> str | None:
    """A warning when other processes keep the cores busy (timings then mislead)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - not available everywhere
        return None
    if load > 0.5 * cores:
        return (f"warning: load average {load:.1f} on {cores} core{'s' * (cores > 1)} before the "
                "run: other processes compete, timings (all-thread ones most) are unreliable")
    return None


def thread_counts() -> list:
    """[1, the usable cores], or [1] on one core."""
    from ntt_cy._support.threads import cpu_count

    cores = cpu_count()
    return [1, cores] if cores > 1 else [1]


def _versions(libraries, cases) -> dict:
    """{name: version, or None when not installed} of the libraries the cases use."""
    versions = {}
    needed = {c.op for c in cases}
    for lib in libraries:
        if not needed.intersection(lib.ops):
            continue  # never import what this run does not use (galois takes seconds)
        try:
            versions[lib.name] = lib.version()
        except ImportError:
            versions[lib.name] = None
    return versions


def run(cases, libraries=None, repeat=7, budget=5.0, seed=0, threads=None, log=None):
    """Run every case through every library (default: libraries.LIBRARIES); returns the
    rows, mismatches marked."""
    libraries = known_libraries.LIBRARIES if libraries is None else libraries
    threads = thread_counts() if threads is None else threads
    versions = _versions(libraries, cases)
    rows = []
    for case in cases:
        inputs = case.inputs(seed)
        reference = None   # (library name, canonical answer): ntt_cy's when it ran
        timed = []         # (row, threads, library, Sampler) of every call that ran
        for lib in libraries:
            if case.op not in lib.ops:
                continue
            version = versions[lib.name]
            if version is None:
                rows.append(Row(case, lib.name, "-", "not installed"))
                continue
            reason = lib.skip(case)
            if reason:
                rows.append(Row(case, lib.name, version, f"skipped: {reason}"))
                continue
            row = Row(case, lib.name, version, "ok", multithreaded=lib.multithreaded)
            rows.append(row)
            if log:
                log(f"  {case.group}, {case.size_label}: {lib.name}")
            for t in (threads if lib.multithreaded else threads[:1]):
                try:
                    with lib.using_threads(t):
                        sampler = Sampler(lib.prepare(case, inputs, t), budget, jit=lib.jit)
                    answer = lib.canonical(case, sampler.result)
                except Exception as exc:  # a competitor failing is reported, not fatal
                    row.status = f"failed: {type(exc).__name__}: {exc}"[:120]
                    break
                sampler.result = None
                timed.append((row, t, lib, sampler))
                if reference is None:
                    reference = (lib.name, answer)
                elif not answers_equal(reference[1], answer):
                    row.mismatch = (f"{lib.name} ({t} thread{'s' * (t > 1)}) disagrees with "
                                    f"{reference[0]}: {first_difference(reference[1], answer)}")
                    row.status = "MISMATCH"
                    break
                del answer
        for r in range(max(1, repeat)):
            for row, t, lib, sampler in (timed if r % 2 == 0 else timed[::-1]):
                with lib.using_threads(t):
                    sampler.sample()
        for row, t, lib, sampler in timed:
            row.times[t] = sampler.timing()
    return rows
