"""Helpers shared by the asv suites (no benchmarks here): primes, lanes, operands, plans,
thread-count checks, medians, and lookups of ntt_cy names across commits.

Every benchmark passes ``workers=`` explicitly: thread counts are parameters, never
inherited from the environment.  An API the checked-out commit does not have, a
parameter combination it rejects, or more workers than cores all raise
NotImplementedError in ``setup``, which asv records as "skipped", not "failed".
"""
import importlib
import os
import sys
import time

import numpy as np

# NTT-friendly primes used across the suites.  The "classic" ones are the primes of the
# polynomial products `ntt-cy demo` multiplies and checks (with 998244353 and P51 below):
# the usual NTT primes c * 2^k + 1 of textbook and contest code.
P_DILITHIUM = 8380417                      # 23 bits, 2^23 - 2^13 + 1, negacyclic n = 256
P_CLASSIC_23 = 7340033                     # 23 bits, 7 * 2^20 + 1
P_CLASSIC_27 = 104857601                   # 27 bits, 25 * 2^22 + 1
P_CLASSIC_29 = 469762049                   # 29 bits, 7 * 2^26 + 1
P30 = 998244353                            # 30 bits, 119 * 2^23 + 1 (lazy-capable on uint32)
P_BABYBEAR = 2013265921                    # 31 bits: uint32 lazy tables, values in [0, p)
P_KOALABEAR = 2130706433                   # 31 bits, 2^31 - 2^24 + 1, as BabyBear
P32 = 2281701377                           # 32 bits, full uint32 range
P51 = 1337006139375617                     # 51 bits, 19 * 2^46 + 1, uint64 lanes
P51_TOP = 2251799235919873                 # largest NTT prime below 2^51 - 2^29: the top of
P51_ABOVE = 2251799394254849               # the AVX2 double-precision kernels, and just above
P62 = 4611686018326724609                  # 62 bits: 64-bit Shoup (lazy) near 4p <= 2^64
P_GOLDILOCKS = 2**64 - 2**32 + 1           # 64 bits: the goldilocks family

# Lane name -> (prime, dtype).
LANES = {"u32": (P30, np.uint32), "u64": (P51, np.uint64)}


def ntt_cy_attr(path, *older_paths):
    """``ntt_cy.<path>`` (dotted; submodules are imported), else the first of
    `older_paths` the checked-out commit has (where a private name lived before it
    moved), or NotImplementedError when it has none of them."""
    try:
        importlib.import_module("ntt_cy")
    except ImportError as exc:
        raise NotImplementedError(f"ntt_cy is not importable: {exc}")
    missing = []
    for candidate in (path, *older_paths):
        obj, prefix = sys.modules["ntt_cy"], "ntt_cy"
        for part in candidate.split("."):
            prefix += "." + part
            if hasattr(obj, part):
                obj = getattr(obj, part)
                continue
            try:
                obj = importlib.import_module(prefix)
            except ImportError:
                missing.append(prefix)
                break
        else:
            return obj
    raise NotImplementedError(f"{' / '.join(missing)}: not available in this commit")


def cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_workers(workers):
    """Skip a thread count this machine cannot honour (no oversubscribed timings)."""
    if workers > cpu_count():
        raise NotImplementedError(f"workers={workers} > {cpu_count()} cores")
    limit = os.environ.get("OMP_THREAD_LIMIT")
    if limit and limit.isdigit() and int(limit) < workers:
        raise NotImplementedError(f"OMP_THREAD_LIMIT={limit} caps workers={workers}")


def random_lanes(shape, p, dtype, seed=0):
    """Uniform values in [0, p) of the given lane dtype."""
    return np.random.default_rng(seed).integers(0, p, size=shape, dtype=np.dtype(dtype))


def make_plan(n, p, dtype=None, kind="cyclic", reduction="auto"):
    """An NTTPlan, or NotImplementedError when the combination is invalid."""
    NTTPlan = ntt_cy_attr("NTTPlan")
    try:
        return NTTPlan(n, p, dtype=dtype, kind=kind, reduction=reduction)
    except (ValueError, TypeError) as exc:
        raise NotImplementedError(f"invalid combination: {exc}")


def butterflies(n, rows=1):
    """Radix-2 butterflies in one length-n transform (n/2 per stage, log2 n stages)."""
    return rows * (n // 2) * (n.bit_length() - 1)


def median_seconds(func, min_runs=3, max_runs=50, budget=0.25):
    """Median wall time of func() over at least min_runs calls (more while under budget)."""
    func()  # warm-up: tables, caches, first-touch page faults
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or (len(times) < max_runs and time.perf_counter() - start < budget):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def interleaved_medians(funcs, min_rounds=15, budget=0.05, max_rounds=1001, warm_up=0.3):
    """Median wall time of each of funcs, sampled round by round (one call of each per
    round, the order reversed every other round), so a change in a shared machine's load
    reaches every function alike and their ratios stay side by side.  At least
    min_rounds rounds, more (up to max_rounds) while the rounds fit in `budget` seconds:
    a few samples of a call of microseconds leave its ratio noisy.  Sampling starts
    after `warm_up` seconds of such rounds: the first rounds of a fresh process are not
    the steady state (idle CPUs wake up slowly, the data is not yet in cache)."""
    start = time.perf_counter()
    warm_rounds = 0
    while warm_rounds < 1 or time.perf_counter() - start < warm_up:
        for func in funcs:
            func()
        warm_rounds += 1
    round_time = (time.perf_counter() - start) / warm_rounds
    rounds = max(min_rounds, min(max_rounds, int(budget / max(round_time, 1e-9))))
    times = [[] for _ in funcs]
    for r in range(rounds):
        order = range(len(funcs)) if r % 2 == 0 else reversed(range(len(funcs)))
        for i in order:
            t0 = time.perf_counter()
            funcs[i]()
            times[i].append(time.perf_counter() - t0)
    return [sorted(t)[len(t) // 2] for t in times]


def empty_like_kernel_rows(a):
    """An uninitialised array like a, placed as ntt_cy places its own results (64-byte
    aligned, page start) where the commit has ntt_cy's aligned arrays, else np.empty_like."""
    try:
        aligned_empty = ntt_cy_attr("_support.aligned.aligned_empty", "_aligned.aligned_empty")
    except NotImplementedError:
        return np.empty_like(a)
    return aligned_empty(a.shape, a.dtype)
