"""Side-by-side comparison of ntt_cy with the libraries a user would pick instead.

    python -m ntt_cy.bench [--quick] [--only ntt|polymul|bigmul] [--sizes 1024,2^17]
                           [--bits 1e5,1e6] [--repeat 7] [--json FILE] [--plot FILE.png]

In ONE process, every workload runs through ntt_cy and through each installed
competitor: python-flint (``nmod_poly`` products, ``fmpz`` big integers), galois
(``galois.ntt``), sympy (``ntt`` / ``convolution_ntt``, small sizes), numpy
(``np.convolve``, small sizes where it is exact), CPython ``int`` and gmpy2.  Every
answer is checked against ntt_cy's (any disagreement: exit status 1), then a table
gives medians for one thread and for all threads, and how many times faster ntt_cy
is ("x" = competitor time / ntt_cy time at the same thread count; single-threaded
libraries are compared with their one-thread time).  A competitor that is not
installed is reported as such, never an error.  Timings are medians of ``--repeat``
samples, taken round by round across the libraries of a case (so the ratios are
measured side by side, not in separate stretches of the machine's load); fast calls
are looped so one sample lasts about a millisecond, after at least 5 ms of untimed
calls (WARM_UP_S: each library is timed as a loop of its own calls runs it, threads
awake), and slow ones stop sampling after ``--budget`` seconds.  Input conversion
(lists, flint/gmpy2 objects) happens before timing.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["main", "Case", "Library", "LIBRARIES", "default_cases", "run", "AnswerMismatch"]

P30 = 998244353                 # 30-bit NTT prime, uint32 lanes
P51 = 1337006139375617          # 51-bit NTT prime (19 * 2^46 + 1), uint64 lanes
M_CRT = 10**9 + 7               # not NTT-friendly: multi-prime CRT
M61 = 2**61 - 1                 # Mersenne prime, 64-bit lanes out: five-prime CRT
# BN254's scalar field (zk-SNARK circuits): four words, nine-prime CRT, Python ints out
M_BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617

OPS = ("ntt", "polymul", "bigmul")


class AnswerMismatch(AssertionError):
    """Two libraries returned different answers for the same workload."""


# --------------------------------------------------------------------------- cases

@dataclass(frozen=True)
class Case:
    """One workload: `op` on inputs of `size` (length n, or bits for bigmul)."""
    op: str                       # "ntt" | "polymul" | "bigmul"
    size: int                     # n for ntt/polymul, bits for bigmul
    modulus: int | None = None    # prime p (ntt) or any modulus (polymul)
    rows: int = 1                 # ntt: a batch of `rows` transforms of length n

    @property
    def group(self) -> str:
        """The series this case belongs to (table heading, one plot panel)."""
        if self.op == "ntt":
            batch = f" batch {self.rows} rows" if self.rows > 1 else ""
            return f"forward NTT{batch} mod {self.modulus}"
        if self.op == "polymul":
            return f"polymul (linear) mod {self.modulus}"
        return "bigmul (two N-bit ints)"

    @property
    def size_label(self) -> str:
        return f"{self.size} bits" if self.op == "bigmul" else f"n = {self.size}"

    def inputs(self, seed: int):
        """Deterministic random inputs: numpy lanes for ntt/polymul, ints for bigmul."""
        if self.op == "bigmul":
            rng = random.Random(seed * 1000003 + self.size)
            top = 1 << (self.size - 1)
            return rng.getrandbits(self.size) | top, rng.getrandbits(self.size) | top
        if self.modulus >= 2**64:   # object arrays of Python ints
            rng = random.Random(seed * 1000003 + self.size + self.modulus)
            return tuple(np.array([rng.randrange(self.modulus) for _ in range(self.size)]
                                  + [None], dtype=object)[:-1] for _ in range(2))
        rng = np.random.default_rng([seed, self.size, self.rows, self.modulus])
        dtype = np.uint32 if self.modulus <= 2**32 else np.uint64
        shape = (self.rows, self.size) if self.rows > 1 else (self.size,)
        if self.op == "ntt":
            return (rng.integers(0, self.modulus, size=shape, dtype=dtype),)
        return (rng.integers(0, self.modulus, size=shape, dtype=dtype),
                rng.integers(0, self.modulus, size=shape, dtype=dtype))


def default_cases(quick=False, sizes=None, bits=None, only=None):
    """The standard workloads (issue-5 targets included); `quick`: tiny sizes for tests."""
    if quick:
        ntt_sizes, poly_sizes, big_bits, batch = [16, 64], [4, 64], [1000, 10000], (4, 16)
    else:
        ntt_sizes = [2**10, 2**14, 2**17, 2**20]
        poly_sizes = [1024, 16384, 131072]
        big_bits = [10**5, 10**6, 10**7]
        batch = (64, 2**14)
    if sizes:
        ntt_sizes = poly_sizes = list(sizes)
        small = [s for s in sizes if s <= 2**14]
        n = max(small) if small else min(sizes)
        # keep the batch within ~1M elements (64 x 2^17 would time fresh 32 MiB results,
        # page faults and all: see README, "Fresh large results and huge pages")
        batch = (max(1, min(batch[0], (1 << 20) // n)), n)
    if bits:
        big_bits = list(bits)
    ops = [only] if only else list(OPS)
    cases = []
    if "ntt" in ops:
        cases += [Case("ntt", n, P30) for n in ntt_sizes]
        if batch[0] > 1:   # (one row would repeat the single transform of that size)
            cases.append(Case("ntt", batch[1], P30, rows=batch[0]))
    if "polymul" in ops:
        for m in (P30, P51, M_CRT, M61, M_BN254):
            cases += [Case("polymul", n, m) for n in poly_sizes]
    if "bigmul" in ops:
        cases += [Case("bigmul", b) for b in big_bits]
    return cases


# --------------------------------------------------------------------------- libraries

def _as_u64(x, shape=None) -> np.ndarray:
    arr = np.asarray(x).astype(np.uint64)
    return arr.reshape(shape) if shape is not None else arr


def _padded(coeffs, length) -> np.ndarray:
    """Coefficient list (trailing zeros possibly stripped) as uint64 of `length`, or
    as Python ints (object) where one does not fit 64 bits."""
    vals = [int(c) for c in coeffs]
    wide = any(v >= 2**64 for v in vals)
    out = np.zeros(length, dtype=object if wide else np.uint64)   # (object: int 0s)
    out[:len(vals)] = vals
    return out


def _friendly(p: int, length: int) -> bool:
    """p is prime-like for NTTs of `length` (a power of two >= length divides p - 1)."""
    n = 1 << max(0, (length - 1).bit_length())
    return (p - 1) % n == 0


class Library:
    """A contender.  Subclasses set `name`, `module`, `ops` and implement prepare()."""
    name = "?"
    module: str | None = None          # import name probed for "installed"
    ops: tuple = ()
    multithreaded = False              # honours a thread count
    jit = False                        # first call compiles (never a timing sample)

    def load(self):
        """The imported module (ImportError when not installed)."""
        return importlib.import_module(self.module)

    def version(self) -> str:
        mod = self.load()
        return str(getattr(mod, "__version__", None) or getattr(mod, "version", lambda: "?")())

    def skip(self, case: Case) -> str | None:
        """Why this library does not run `case` (None: it does)."""
        return None

    def prepare(self, case: Case, inputs, threads: int):
        """A zero-argument callable doing the timed work (conversions done here)."""
        raise NotImplementedError

    def canonical(self, case: Case, result):
        """The result in the common form: uint64 array (ntt, polymul) or int."""
        if case.op == "bigmul":
            return int(result)
        if case.op == "ntt":
            return _as_u64(result)
        return _padded(result, 2 * case.size - 1)

    @contextlib.contextmanager
    def using_threads(self, threads: int):
        yield


class NttCy(Library):
    name, module, ops, multithreaded = "ntt_cy", "ntt_cy", OPS, True

    def skip(self, case):
        mod = self.load()
        fn = {"ntt": "ntt", "polymul": "polymul", "bigmul": "bigmul"}[case.op]
        if not hasattr(mod, fn):
            return f"ntt_cy.{fn} is not in this build"
        return None

    def prepare(self, case, inputs, threads):
        mod = self.load()
        if case.op == "ntt":
            (a,) = inputs
            return lambda: mod.ntt(a, case.modulus, workers=threads)
        if case.op == "polymul":
            a, b = inputs
            return lambda: mod.polymul(a, b, case.modulus, kind="linear", workers=threads)
        x, y = inputs
        if "workers" in inspect.signature(mod.bigmul).parameters:
            return lambda: mod.bigmul(x, y, workers=threads)
        return lambda: mod.bigmul(x, y)

    def canonical(self, case, result):
        if case.op == "polymul":
            return _padded(result, 2 * case.size - 1)
        return super().canonical(case, result)


class Flint(Library):
    """python-flint: nmod_poly (word-size moduli) and fmpz_mod_poly (larger primes)
    products, fmpz big integers."""
    name, module, ops, multithreaded = "python-flint", "flint", ("polymul", "bigmul"), True

    def skip(self, case):
        from ntt_cy.primes import is_prime

        if case.op == "polymul" and case.modulus >= 2**64 and not is_prime(case.modulus):
            return "fmpz_mod_poly needs a prime modulus"
        return None

    def prepare(self, case, inputs, threads):
        flint = self.load()
        if case.op == "polymul":
            if case.modulus >= 2**64:
                ctx = flint.fmpz_mod_poly_ctx(case.modulus)
                fa, fb = (ctx(x.tolist()) for x in inputs)
            else:
                fa, fb = (flint.nmod_poly(x.tolist(), case.modulus) for x in inputs)
            return lambda: fa * fb
        fx, fy = (flint.fmpz(v) for v in inputs)
        return lambda: fx * fy

    def canonical(self, case, result):
        if case.op == "polymul":
            return _padded(result.coeffs(), 2 * case.size - 1)
        return int(result)

    @contextlib.contextmanager
    def using_threads(self, threads):
        ctx = self.load().ctx
        old = ctx.threads
        ctx.threads = threads
        try:
            yield
        finally:
            ctx.threads = old


class Galois(Library):
    """galois.ntt (numba kernels); batches are a Python loop over rows."""
    name, module, ops, jit = "galois", "galois", ("ntt",), True
    max_n = 2**20

    def skip(self, case):
        if case.modulus >= 2**31:
            return "galois uses slow object arithmetic for p >= 2^31"
        if case.size * case.rows > self.max_n:
            return f"n x rows > {self.max_n}"
        return None

    def prepare(self, case, inputs, threads):
        galois = self.load()
        (a,) = inputs
        p = case.modulus
        if case.rows > 1:
            return lambda: [galois.ntt(row, modulus=p) for row in a]
        return lambda: galois.ntt(a, modulus=p)

    def canonical(self, case, result):
        if case.rows > 1:
            return np.stack([np.asarray(r).astype(np.uint64) for r in result])
        return np.asarray(result).astype(np.uint64)


class Sympy(Library):
    """sympy.discrete: pure-Python ntt and convolution_ntt (small sizes only)."""
    name, module, ops = "sympy", "sympy", ("ntt", "polymul")
    max_n = 2**14

    def skip(self, case):
        if case.size > self.max_n or case.rows > 1:
            return f"pure Python: n <= {self.max_n}, no batches"
        if case.op == "polymul" and not _friendly(case.modulus, 2 * case.size - 1):
            return "convolution_ntt needs an NTT-friendly prime"
        return None

    def prepare(self, case, inputs, threads):
        from sympy.discrete.convolutions import convolution_ntt
        from sympy.discrete.transforms import ntt

        lists = [x.tolist() for x in inputs]
        if case.op == "ntt":
            return lambda: ntt(lists[0], case.modulus)
        return lambda: convolution_ntt(lists[0], lists[1], prime=case.modulus)

    def canonical(self, case, result):
        if case.op == "ntt":
            return np.array([int(v) for v in result], dtype=np.uint64)
        return _padded(result, 2 * case.size - 1)


class Numpy(Library):
    """np.convolve: int64 when n (m-1)^2 < 2^63, object (Python ints) for n <= 2048."""
    name, module, ops = "numpy", "numpy", ("polymul",)
    max_object_n = 2048

    def _dtype(self, case):
        if case.size * (case.modulus - 1) ** 2 < 2**63:
            return np.int64
        if case.size <= self.max_object_n:
            return object
        return None

    def skip(self, case):
        if self._dtype(case) is None:
            return f"int64 would overflow; object dtype too slow for n > {self.max_object_n}"
        return None

    def prepare(self, case, inputs, threads):
        dt = self._dtype(case)
        a, b = (x.astype(dt) for x in inputs)
        m = case.modulus
        return lambda: np.convolve(a, b) % m


class CPythonInt(Library):
    name, module, ops = "CPython int", "sys", ("bigmul",)

    def version(self):
        return platform.python_version()

    def prepare(self, case, inputs, threads):
        x, y = inputs
        return lambda: x * y


class Gmpy2(Library):
    name, module, ops = "gmpy2", "gmpy2", ("bigmul",)

    def prepare(self, case, inputs, threads):
        gmpy2 = self.load()
        x, y = (gmpy2.mpz(v) for v in inputs)
        return lambda: x * y


LIBRARIES: list = [NttCy(), Flint(), Galois(), Sympy(), Numpy(), CPythonInt(), Gmpy2()]


# --------------------------------------------------------------------------- timing

@dataclass
class Timing:
    median_s: float
    samples_s: list
    calls_per_sample: int


# Calls faster than this get untimed calls before each sample, for at least
# WARM_UP_S (one call at least).  Samples of different libraries alternate (see run),
# and a competitor's call evicts the caches: measured on Zen 3, ntt_cy.ntt at n = 2^17
# took 286 us right after a galois.ntt call and 193 us two calls later.  A second
# thread takes longer: on two threads the calls after a galois call took (medians of
# 20) 339, 235, 223 ... us and settled at ~199 us from the tenth call on (~2.5 ms),
# while one thread was unaffected; with a single untimed call two threads read
# 1.11-1.20x one thread on a 2^17 transform, against 1.5x in a loop of its own calls.
# Each library is timed warm, with its own data in cache and its threads running, as
# a loop of its own calls would run it; slower calls hardly notice a cold start.
WARM_UP_BELOW_S = 0.01
WARM_UP_S = 0.005


class _Sampler:
    """One timed call.  The first call is a warm-up (plans, caches) whose result is the
    one checked; fast calls (a second call below WARM_UP_BELOW_S; the first is timed
    again unless it took a quarter of the budget) are looped `target` seconds per
    sample, after untimed calls for WARM_UP_S; sampling stops once the samples have
    taken `budget` seconds (at least one sample).  A first call slower than the budget
    is the only sample, unless `jit` (it then includes compilation)."""

    def __init__(self, fn, budget=5.0, target=1e-3, jit=False):
        t0 = time.perf_counter()
        self.result = fn()
        once = time.perf_counter() - t0
        self.fn, self.budget, self.spent, self.samples = fn, budget, 0.0, []
        self.done = once > budget and not jit
        if self.done:  # too slow to repeat: one sample is all the budget allows
            self.number, self.samples = 1, [once]
            return
        if jit or once < max(WARM_UP_BELOW_S, budget / 4):
            # the first call may include one-time work (plans, routes, the cost model's
            # measurements: tens of ms before a 2 us product): the loop is sized from
            # the second, which costs at most max(WARM_UP_BELOW_S, budget / 4) more
            t0 = time.perf_counter()
            fn()
            once = time.perf_counter() - t0
        self.number = max(1, min(100_000, int(target / max(once, 1e-9))))
        self.warm_up = once < WARM_UP_BELOW_S

    def sample(self):
        if self.done:
            return
        if self.warm_up:
            start = time.perf_counter()
            self.fn()
            while time.perf_counter() - start < WARM_UP_S:
                self.fn()
        t0 = time.perf_counter()
        for _ in range(self.number):
            self.fn()
        elapsed = time.perf_counter() - t0
        self.samples.append(elapsed / self.number)
        self.spent += elapsed
        self.done = self.spent > self.budget

    def timing(self) -> Timing:
        return Timing(statistics.median(self.samples), self.samples, self.number)


def measure(fn, repeat=7, budget=5.0, target=1e-3, jit=False):
    """(first result, Timing) of `fn` alone (see _Sampler)."""
    sampler = _Sampler(fn, budget, target, jit)
    for _ in range(max(1, repeat)):
        sampler.sample()
    return sampler.result, sampler.timing()


# --------------------------------------------------------------------------- running

@dataclass
class Row:
    case: Case
    library: str
    version: str
    status: str                                   # "ok", "not installed", "skipped: ...", ...
    times: dict = field(default_factory=dict)     # threads -> Timing
    mismatch: str | None = None


def _first_difference(x, y) -> str:
    if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
        if x.shape != y.shape:
            return f"shape {y.shape} != {x.shape}"
        i = np.flatnonzero(x.ravel() != y.ravel())[0]
        return f"index {i}: {int(y.ravel()[i])} != {int(x.ravel()[i])}"
    if isinstance(x, int) and isinstance(y, int):
        return f"integers differ (bit lengths {y.bit_length()} vs {x.bit_length()})"
    return f"{type(y).__name__} result vs {type(x).__name__}"


def _equal(x, y) -> bool:
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
    from ntt_cy._support.threads import cpu_count

    cores = cpu_count()
    return [1, cores] if cores > 1 else [1]


def run(cases, libraries=None, repeat=7, budget=5.0, seed=0, threads=None, log=None):
    """Run every case through every library; returns the rows (mismatches marked)."""
    libraries = LIBRARIES if libraries is None else libraries
    threads = thread_counts() if threads is None else threads
    versions = {}
    needed = {c.op for c in cases}
    for lib in libraries:
        if not needed.intersection(lib.ops):
            continue  # never import what this run does not use (galois takes seconds)
        try:
            versions[lib.name] = lib.version()
        except ImportError:
            versions[lib.name] = None
    rows = []
    for case in cases:
        inputs = case.inputs(seed)
        reference = None   # (library name, canonical answer): ntt_cy's when it ran
        timed = []         # (row, threads, library, _Sampler) of every call that ran
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
            row = Row(case, lib.name, version, "ok")
            rows.append(row)
            if log:
                log(f"  {case.group}, {case.size_label}: {lib.name}")
            for t in (threads if lib.multithreaded else threads[:1]):
                try:
                    with lib.using_threads(t):
                        sampler = _Sampler(lib.prepare(case, inputs, t), budget, jit=lib.jit)
                    answer = lib.canonical(case, sampler.result)
                except Exception as exc:  # a competitor failing is reported, not fatal
                    row.status = f"failed: {type(exc).__name__}: {exc}"[:120]
                    break
                sampler.result = None
                timed.append((row, t, lib, sampler))
                if reference is None:
                    reference = (lib.name, answer)
                elif not _equal(reference[1], answer):
                    row.mismatch = (f"{lib.name} ({t} thread{'s' * (t > 1)}) disagrees with "
                                    f"{reference[0]}: {_first_difference(reference[1], answer)}")
                    row.status = "MISMATCH"
                    break
                del answer
        # Samples are taken round by round, one of every call per round (the order
        # reversed every other round), so a change in the machine's load during the
        # case reaches every library alike and the ratios stay side by side.
        for r in range(max(1, repeat)):
            for row, t, lib, sampler in (timed if r % 2 == 0 else timed[::-1]):
                with lib.using_threads(t):
                    sampler.sample()
        for row, t, lib, sampler in timed:
            row.times[t] = sampler.timing()
    return rows


# --------------------------------------------------------------------------- output

def fmt_time(s) -> str:
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            v = s / scale
            return f"{v:.3g} {unit}" if v < 1000 else f"{v:.0f} {unit}"
    return "-"  # pragma: no cover


def _fmt_ratio(x) -> str:
    if not x:
        return ""
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.2g}x"


def _time_at(row, t):
    """Median at `t` threads; single-threaded libraries answer with their 1-thread time."""
    timing = row.times.get(t) or (row.times.get(1) if t != 1 else None)
    return timing.median_s if timing else None


def speedups(rows, threads):
    """{(row id, t): competitor time / ntt_cy time} for every competitor row."""
    out = {}
    by_case = {}
    for r in rows:
        by_case.setdefault(r.case, []).append(r)
    for case_rows in by_case.values():
        ours = next((r for r in case_rows if r.library == "ntt_cy" and r.times), None)
        if ours is None:
            continue
        for r in case_rows:
            if r.mismatch:  # a wrong answer gets no speed ratio
                continue
            for t in threads:
                mine, theirs = _time_at(ours, t), _time_at(r, t)
                if mine and theirs and (t in r.times or not _multithreaded(r.library)):
                    out[(id(r), t)] = theirs / mine
    return out


def _multithreaded(name):
    return any(lib.multithreaded for lib in LIBRARIES if lib.name == name)


def _note(row, threads):
    if row.library != "ntt_cy" or not row.times:
        return ""
    notes = []
    if row.case.op == "ntt" and 1 in row.times:
        n = row.case.size
        bf = row.case.rows * (n // 2) * (n.bit_length() - 1)
        if bf:   # (n = 1 has none)
            notes.append(f"{row.times[1].median_s * 1e9 / bf:.2f} ns/butterfly")
    if len(threads) > 1 and 1 in row.times and threads[-1] in row.times:
        scaling = row.times[1].median_s / row.times[threads[-1]].median_s
        notes.append(f"{threads[-1]} threads vs 1: {scaling:.2f}x")
    return ", ".join(notes)


def format_table(rows, threads) -> str:
    """Grouped text table: per case, one line per library."""
    ratio = speedups(rows, threads)
    head = ["size", "library", "version"]
    for t in threads:
        head += [f"{t} thread{'s' * (t > 1)}", "x"]
    head.append("note")
    lines = []
    group = None
    table = []

    def flush():
        if not table:
            return
        widths = [max(len(str(r[i])) for r in [head] + table) for i in range(len(head))]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
        for r in table:
            lines.append("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
        table.clear()

    for r in rows:
        if r.case.group != group:
            flush()
            group = r.case.group
            lines.append("")
            lines.append(group)
        cells = [r.case.size_label, r.library, r.version]
        if r.status != "ok" and not r.times:
            cells += ["-", ""] * len(threads)
            cells.append(f"MISMATCH: {r.mismatch}" if r.mismatch else r.status)
            table.append(cells)
            continue
        for t in threads:
            own = r.times.get(t)
            cells.append(fmt_time(own.median_s) if own else ("(1 thread)" if t != 1 and r.times else "-"))
            x = None if r.library == "ntt_cy" else ratio.get((id(r), t))
            cells.append(_fmt_ratio(x))
        if r.mismatch:
            cells.append(f"MISMATCH: {r.mismatch}")
        else:
            cells.append(r.status if r.status != "ok" else _note(r, threads))
        table.append(cells)
    flush()
    return "\n".join(lines)


def _build_config() -> dict:
    """ntt_cy's show_config() fields; never fails the benchmark."""
    try:
        from ntt_cy._support.config import config

        return {k: str(v) for k, v in config().items()}
    except Exception as exc:  # e.g. a half-installed optional GPU package
        return {"error": f"{type(exc).__name__}: {exc}"}


def results_json(rows, threads, options) -> dict:
    from ntt_cy import __version__

    ratio = speedups(rows, threads)
    competitors = {}
    out = []
    for r in rows:
        competitors.setdefault(r.library, r.version if r.status != "not installed" else None)
        base = {"op": r.case.op, "case": r.case.group, "size": r.case.size,
                "modulus": r.case.modulus, "rows": r.case.rows, "library": r.library,
                "version": r.version, "status": r.status, "mismatch": r.mismatch}
        if not r.times:
            out.append(dict(base, threads=None, median_s=None, samples_s=[],
                            calls_per_sample=0, ntt_cy_speedup=None))
        for t, tm in r.times.items():
            x = 1.0 if r.library == "ntt_cy" else ratio.get((id(r), t))
            out.append(dict(base, threads=t, median_s=tm.median_s, samples_s=tm.samples_s,
                            calls_per_sample=tm.calls_per_sample, ntt_cy_speedup=x))
    mismatches = [r.mismatch for r in rows if r.mismatch]
    return {
        "ntt_cy": __version__,
        "config": _build_config(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "threads": threads,
        "options": options,
        "competitors": competitors,
        "agree": not mismatches,
        "mismatches": mismatches,
        "results": out,
    }


def plot(rows, threads, path):
    """Time vs size on log axes, one panel per workload group, one line per library/threads."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = list(dict.fromkeys(r.case.group for r in rows if r.times))
    if not groups:
        raise ValueError("nothing was timed: no plot to draw")
    cols = min(3, len(groups))
    nrows = math.ceil(len(groups) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 4 * nrows), squeeze=False)
    for ax, g in zip(axes.flat, groups):
        series = {}
        for r in rows:
            if r.case.group != g:
                continue
            for t, tm in r.times.items():
                series.setdefault(f"{r.library} ({t} thr)", []).append((r.case.size, tm.median_s))
        for label, pts in series.items():
            pts.sort()
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_title(g, fontsize=9)
        ax.set_xlabel("bits" if g.startswith("bigmul") else "n")
        ax.set_ylabel("median time (s)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(groups):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------- CLI

# Past these, one case needs more memory than a benchmark machine is assumed to have
# (a 2^26-point polymul holds ~2 GiB of operands, transforms and competitors' copies).
MAX_SIZE = 1 << 26
MAX_BITS = 1 << 32


def _parse_bits(text):
    """As _parse_sizes, for bigmul operand sizes in bits (at most MAX_BITS)."""
    return _parse_sizes(text, MAX_BITS, "bits")


def _parse_sizes(text, limit=MAX_SIZE, what="sizes"):
    """'1024,2^17,1e6,1<<20' -> [1024, 131072, 1000000, 1048576]; each in [1, limit]."""
    out = []
    for tok in text.replace(" ", "").split(","):
        if not tok:
            continue
        try:
            if "^" in tok or "**" in tok:
                base, exp = tok.replace("**", "^").split("^")
                v = int(base) ** min(int(exp), 64)   # capped: past the limit either way
            elif "<<" in tok:
                base, sh = tok.split("<<")
                v = int(base) << min(int(sh), 64)
            elif "e" in tok.lower():
                v = int(float(tok))
            else:
                v = int(tok)
        except (ValueError, OverflowError):   # OverflowError: 1e400 is inf
            raise argparse.ArgumentTypeError(f"invalid size {tok!r}") from None
        if v < 1:
            raise argparse.ArgumentTypeError(f"{what} must be positive, got {tok!r}")
        if v > limit:
            raise argparse.ArgumentTypeError(f"{what} must be at most 2^{limit.bit_length() - 1}, "
                                             f"got {tok!r}")
        out.append(v)
    if not out:
        raise argparse.ArgumentTypeError("no sizes given")
    return out


def _unwritable(path, plot=False):
    """Why `path` cannot take --json / --plot output, or "" (checked before the run)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"no such directory {folder}"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return "not writable"
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        kinds = Figure().canvas.get_supported_filetypes()
        ext = os.path.splitext(path)[1].lstrip(".").lower()
        if ext and ext not in kinds:   # (no extension: matplotlib writes png)
            return f"matplotlib cannot write .{ext} files (one of: {', '.join(sorted(kinds))})"
    return ""


def build_parser():
    ap = argparse.ArgumentParser(
        prog="ntt-cy bench",
        description="Compare ntt_cy with python-flint, galois, sympy, numpy, CPython int and "
                    "gmpy2 on the same workloads in one process; answers are checked.")
    ap.add_argument("--only", choices=OPS, help="run one kind of workload")
    ap.add_argument("--sizes", type=_parse_sizes,
                    help="ntt/polymul lengths, e.g. 1024,2^17 (default 2^10..2^20)")
    ap.add_argument("--bits", type=_parse_bits,
                    help="bigmul operand sizes in bits, e.g. 1e5,1e6 (default 1e5,1e6,1e7)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="samples per timing, median reported (default 7; 3 with --quick)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of sampling per library and case (default 3; 0.1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test, not figures)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    ap.add_argument("--json", metavar="FILE", help="also write machine-readable results")
    ap.add_argument("--plot", metavar="FILE.png", help="time vs size, log axes (needs matplotlib)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    return ap


def main(argv=None) -> int:
    """Entry point of ``ntt-cy bench`` / ``python -m ntt_cy.bench``; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        print("error: --repeat must be >= 1", file=sys.stderr)
        return 2
    if args.budget is not None and not args.budget >= 0:   # (NaN too)
        print(f"error: --budget must be >= 0 seconds, got {args.budget}", file=sys.stderr)
        return 2
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("error: --plot needs matplotlib, which is not installed "
                  "(pip install matplotlib, or pip install 'ntt_cy[compare]')", file=sys.stderr)
            return 2
    # Bad output paths are reported before the run, not as a traceback after it.
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        problem = path and _unwritable(path, plot=option == "--plot")
        if problem:
            print(f"error: {option} {path}: {problem}", file=sys.stderr)
            return 2
    if args.only == "bigmul" and args.sizes is not None:
        print("error: --sizes sets ntt/polymul lengths; bigmul takes --bits (e.g. --bits 1e6)",
              file=sys.stderr)
        return 2
    if args.only in ("ntt", "polymul") and args.bits is not None:
        print(f"error: --bits sets bigmul sizes; {args.only} takes --sizes (e.g. --sizes 2^17)",
              file=sys.stderr)
        return 2
    repeat = args.repeat or (3 if args.quick else 7)
    budget = args.budget if args.budget is not None else (0.1 if args.quick else 3.0)
    cases = default_cases(args.quick, args.sizes, args.bits, args.only)
    threads = thread_counts()
    log = None if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    busy = load_warning(threads[-1])
    start = time.perf_counter()
    rows = run(cases, repeat=repeat, budget=budget, seed=args.seed, threads=threads, log=log)
    elapsed = time.perf_counter() - start

    from ntt_cy import __version__

    cfg = _build_config()
    print(f"ntt_cy {__version__} ({cfg.get('kernel_isa', '?')}; OpenMP {cfg.get('openmp', '?')}), "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{threads[-1]} core{'s' * (threads[-1] > 1)}, {platform.machine()}")
    print(f"median of {repeat} samples; x = competitor time / ntt_cy time at the same thread "
          f"count (> 1: ntt_cy faster); all answers checked against ntt_cy")
    if busy:
        print(busy)
    print(format_table(rows, threads))
    print(f"\n({elapsed:.1f} s)")
    options = {"quick": args.quick, "only": args.only, "sizes": args.sizes, "bits": args.bits,
               "repeat": repeat, "budget": budget, "seed": args.seed, "load_warning": busy}
    try:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results_json(rows, threads, options), f, indent=1)
        if args.plot:
            plot(rows, threads, args.plot)
            print(f"plot written to {args.plot}")
    except (OSError, ValueError) as exc:   # (a path that went away during the run)
        print(f"error: cannot write the results: {exc}", file=sys.stderr)
        return 1
    mismatches = [r.mismatch for r in rows if r.mismatch]
    failed_ours = [r for r in rows if r.library == "ntt_cy" and r.status.startswith("failed")]
    for m in mismatches:
        print(f"error: answers disagree: {m}", file=sys.stderr)
    for r in failed_ours:
        print(f"error: ntt_cy {r.case.group}, {r.case.size_label}: {r.status}", file=sys.stderr)
    return 1 if mismatches or failed_ours else 0


if __name__ == "__main__":
    sys.exit(main())
