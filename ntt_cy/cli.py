"""The `ntt-cy` command line (also `python -m ntt_cy`).

    ntt-cy demo [--repeat R] [--workers W] [--seed S]
    ntt-cy polymul INPUT [-o OUTPUT] [-m M] [--kind KIND] [--format F] [--output-format F]
                   [--max-bytes N] [--workers W]
    ntt-cy info
    ntt-cy bench [ARGS ...]

The files polymul reads and writes: ntt_cy/_cli_files.py.  Exit codes: 0 success; 1 a
demo check failed, a subcommand is unavailable, out of memory, an output file could not
be written, or the reader of the output left early (a closed pipe); 2 malformed or too
large input, or bad usage (one line on stderr, never a traceback).
"""
from __future__ import annotations

import argparse
import importlib
import math
import os
import random
import sys
import time
from typing import IO, Sequence

from ntt_cy._cli_files import (DEFAULT_MAX_BYTES, FORMATS, InputError, Problem, format_for_path,
                               format_product, parse_size, read_problem)
from ntt_cy._version import __version__

__all__ = ["main"]

EXIT_OK, EXIT_FAIL, EXIT_INPUT = 0, 1, 2

# The classic polynomial-multiplication cases, plus moduli the transforms cannot use
# directly: (n, modulus, note).
DEMO_CASES = (
    (4, 7340033, "classic, tiny"),
    (131072, 7340033, "classic"),
    (131072, 104857601, "classic"),
    (131072, 469762049, "classic"),
    (131072, 1337006139375617, "classic, 51-bit prime"),
    (131072, 10**9 + 7, "non-NTT prime"),
    (1024, 2**32, "composite modulus"),
)

# Products with 2n - 1 <= EXACT_MAX_LEN coefficients are checked exactly against a
# Python-int schoolbook; larger ones by evaluation at random points (modulus prime).
EXACT_MAX_LEN = 2047

# A wrong product passes the evaluation check with probability at most
# (deg / p)^points (Schwartz-Zippel); enough points are drawn to push that below.
FALSE_PASS = 1e-9


# ---------------------------------------------------------------- helpers

class Progress:
    """`[k/total] label` on stderr, redrawn in place; silent unless stderr is a TTY."""

    def __init__(self, total: int, stream: IO[str] | None = None) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.active = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._width = 0

    def update(self, k: int, label: str) -> None:
        if not self.active:
            return
        text = f"[{k}/{self.total}] {label}"
        pad = max(0, self._width - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self._width = len(text)

    def done(self) -> None:
        if self.active and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()


WORKERS_HELP = ("threads: a positive count, or a negative one to count back from the "
                "CPUs (-1: all of them, -2: all but one); default: OMP_NUM_THREADS, else "
                "every CPU")


def _workers(text: str) -> int:
    from ntt_cy._support.threads import MAX_WORKERS, cpu_count, requested_workers

    cores = cpu_count()
    accepted = (f"give a positive count (at most {MAX_WORKERS}), or a negative one to count "
                f"back from the {cores} CPUs (-1 to -{cores}; -1: all of them)")
    try:
        value = int(text)
        requested_workers(value)   # the library's rules
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid worker count {text!r}: {accepted}") from None
    return value


def _modulus(text: str) -> int:
    if not (text.isascii() and text.strip().isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"invalid modulus {text!r}: give an integer >= 1")
    return int(text)


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def _error(message: str, code: int) -> int:
    print(f"ntt-cy: error: {message}", file=sys.stderr)
    return code


# ---------------------------------------------------------------- parser

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ntt-cy",
        description="Exact number-theoretic transforms: polynomial multiplication modulo "
                    "any integer, checked demos, configuration and benchmarks.",
        epilog="Exit codes: 0 success, 1 a check failed, a subcommand is unavailable, "
               "the output file could not be written or the output's reader left early, "
               "2 malformed input or bad usage.  Start with: ntt-cy demo",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    demo = sub.add_parser(
        "demo", help="multiply the classic test cases, verify each product, time them",
        description="Multiply the classic polynomial-multiplication cases (n = 4 and "
                    "n = 131072 with p = 7340033, 104857601, 469762049; n = 131072 with the "
                    "51-bit prime 1337006139375617) and two moduli the transforms cannot use "
                    "directly (the prime 10**9+7 and 2**32, through multi-prime CRT), verify "
                    "each product independently (exact Python-int schoolbook for small "
                    "cases, evaluation at random points with Python ints for large ones) "
                    "and print a table with the average latency.  Exit 1 if a check fails.",
    )
    demo.add_argument("--repeat", type=_positive, default=10, metavar="R",
                      help="timed runs per large case (small cases run 100*R times; "
                           "default: %(default)s)")
    demo.add_argument("--workers", type=_workers, default=None, metavar="W", help=WORKERS_HELP)
    demo.add_argument("--seed", type=int, default=None, metavar="S",
                      help="seed for the operands and check points (default: random, printed)")

    poly = sub.add_parser(
        "polymul", help="multiply two polynomials read from a file (text, CSV or JSON)",
        description="Multiply two polynomials modulo m (any integer >= 1, prime or not) "
                    "and write the product's coefficients.  Input, detected or named by "
                    "--format: whitespace text or CSV with a header line 'n m' (then n "
                    "coefficients of a and n of b, over any number of lines) or 'na nb m' "
                    "(then na and nb); without a header, with --modulus M: a on the first "
                    "line, b on the next; or JSON {\"modulus\": m, \"a\": [...], \"b\": "
                    "[...]} (or [a, b] with --modulus).  Coefficients are any integers, "
                    "reduced mod m.  Output: one line of text or CSV, or JSON "
                    "{\"modulus\", \"kind\", \"product\"}, in the input's format unless "
                    "--output-format or OUTPUT's extension (.txt, .csv, .json) says "
                    "otherwise.  Malformed input gives a one-line error naming the line "
                    "and exit code 2.",
    )
    poly.add_argument("input", metavar="INPUT", help="input file, or - for stdin")
    poly.add_argument("-o", "--output", metavar="OUTPUT", default="-",
                      help="output file (default: - for stdout)")
    poly.add_argument("-m", "--modulus", type=_modulus, default=None, metavar="M",
                      help="the modulus, an integer >= 1: the input then has no header "
                           "(text, CSV: a on one line, b on the next)")
    poly.add_argument("--kind", choices=("linear", "cyclic", "negacyclic"), default="linear",
                      help="product modulo nothing, x^n - 1 or x^n + 1 (default: %(default)s)")
    poly.add_argument("--format", choices=("auto",) + FORMATS, default="auto",
                      help="input format (default: detected: JSON when it starts with { or "
                           "[, CSV when its first line has a comma, else text)")
    poly.add_argument("--output-format", choices=FORMATS, default=None,
                      help="output format (default: OUTPUT's extension, else the input's)")
    poly.add_argument("--max-bytes", type=_size, default=DEFAULT_MAX_BYTES, metavar="N",
                      help="refuse inputs larger than N bytes (K, M, G suffixes; "
                           "default: 256M)")
    poly.add_argument("--workers", type=_workers, default=None, metavar="W", help=WORKERS_HELP)

    sub.add_parser("info", help="show the build configuration (show_config)",
                   description="Print ntt_cy.show_config(): version, compiler flags, OpenMP, "
                               "kernel ISA, cores, GPU availability.")
    sub.add_parser("bench", help="run the benchmark suite (arguments go to ntt_cy.bench)",
                   description="Forward every following argument to ntt_cy.bench.main; "
                               "`ntt-cy bench --help` shows its options.",
                   add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `ntt-cy` and `python -m ntt_cy`; returns the exit code."""
    try:
        code = _run(list(sys.argv[1:] if argv is None else argv))
        sys.stdout.flush()   # a closed pipe shows here, not at the interpreter's exit
        return code
    except BrokenPipeError:
        # the reader left early (`ntt-cy demo | head`): stop quietly, as Unix tools do.
        # When stdout is a real file descriptor it now points at /dev/null, so the
        # interpreter's last flush cannot fail again.
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):
            return EXIT_FAIL
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
        return EXIT_FAIL


def _run(argv: list[str]) -> int:
    if argv and argv[0] == "bench":
        return cmd_bench(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    if args.command == "demo":
        return cmd_demo(args.repeat, args.workers, args.seed)
    if args.command == "polymul":
        try:
            return cmd_polymul(args)
        except MemoryError as exc:   # (anywhere: reading, multiplying, writing)
            message = str(exc).splitlines()[0] if str(exc) else "no memory left"
            return _error(f"{_label(args.input)}: out of memory: {message}", EXIT_FAIL)
    if args.command == "info":
        return cmd_info()
    return cmd_bench([])  # pragma: no cover - handled above


# ---------------------------------------------------------------- info / bench

def cmd_info() -> int:
    from ntt_cy import show_config

    show_config()
    return EXIT_OK


def cmd_bench(argv: Sequence[str]) -> int:
    try:
        bench = importlib.import_module("ntt_cy.bench")
    except ModuleNotFoundError as exc:
        if exc.name in ("ntt_cy.bench",):
            return _error("the benchmark module ntt_cy.bench is not part of this installation",
                          EXIT_FAIL)
        return _error(f"ntt_cy.bench needs a missing module: {exc.name}", EXIT_FAIL)
    code = bench.main(list(argv))
    return EXIT_OK if code is None else int(code)


# ---------------------------------------------------------------- polymul

def _label(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _read(path: str, fmt: str, modulus: int | None, max_bytes: int) -> Problem:
    """The problem in the file `path` (- for stdin)."""
    if path == "-":
        return read_problem(getattr(sys.stdin, "buffer", sys.stdin), fmt, modulus, max_bytes)
    with open(path, "rb") as stream:
        return read_problem(stream, fmt, modulus, max_bytes)


def cmd_polymul(args: argparse.Namespace) -> int:
    from ntt_cy.poly import polymul

    path = args.input
    progress = Progress(3)
    progress.update(1, f"reading {path}")
    try:
        problem = _read(path, args.format, args.modulus, args.max_bytes)
    except InputError as exc:
        progress.done()
        return _error(f"{_label(path)}: {exc}", EXIT_INPUT)
    except OSError as exc:
        progress.done()
        return _error(f"cannot read {path}: {exc.strerror or exc}", EXIT_INPUT)
    m = problem.modulus
    progress.update(2, f"multiplying {len(problem.a)} x {len(problem.b)} coefficients mod {m}")
    try:
        result = polymul(problem.a, problem.b, m, kind=args.kind, workers=args.workers)
    except ValueError as exc:   # a well-formed problem the library refuses (e.g. m too large)
        progress.done()
        return _error(f"{_label(path)}: {exc}", EXIT_INPUT)
    progress.update(3, "writing")
    fmt = args.output_format or format_for_path(args.output) or problem.format
    text = format_product(result.tolist(), fmt, m, args.kind)
    progress.done()
    if args.output == "-":
        _write_stdout(text)
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        return _error(f"cannot write {args.output}: {exc.strerror or exc}", EXIT_FAIL)
    return EXIT_OK


def _write_stdout(text: str) -> None:
    """Write text to stdout whole, or raise BrokenPipeError.  One large sys.stdout.write
    into a pipe whose reader leaves returns as if done after a partial write (the 64 KiB
    the pipe took), so the reader's leaving would go unnoticed and the exit code read 0:
    write the bytes to the descriptor in a loop instead, where the next write fails."""
    sys.stdout.flush()
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):   # (io.UnsupportedOperation: captured)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    data = memoryview(text.encode(sys.stdout.encoding or "utf-8"))
    while data:
        data = data[os.write(fd, data):]


# ---------------------------------------------------------------- demo

def _schoolbook_exact(a: list[int], b: list[int], m: int) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return [v % m for v in out]


def _powers(r: int, count: int, p: int) -> list[int]:
    pw = [1] * count
    x = 1
    for i in range(1, count):
        x = x * r % p
        pw[i] = x
    return pw


def _dot(coeffs: list[int], pw: list[int], p: int) -> int:
    # sum c_i r^i mod p with Python ints (map/sum run at C speed)
    from operator import mul

    total: int = sum(map(mul, coeffs, pw))   # (operator.mul is typed to return Any)
    return total % p


def check_product(a: list[int], b: list[int], c: list[int], m: int, rng: random.Random
                  ) -> tuple[bool, str]:
    """Independent check of c == a*b mod m (Python-int lists).  Returns (ok, how)."""
    L = len(a) + len(b) - 1
    if len(c) != L:
        return False, f"length {len(c)} != {L}"
    if L <= EXACT_MAX_LEN:
        return c == _schoolbook_exact(a, b, m), "exact"
    from ntt_cy.primes import is_prime

    if not is_prime(m) or 2 * L > m:
        raise ValueError("the evaluation check needs a prime modulus above 2 * length")
    # A wrong c differs from a*b by a nonzero polynomial of degree < L: it vanishes at
    # fewer than L of the m points, so each random point exposes it with probability
    # > 1 - L/m.
    points = max(1, math.ceil(math.log(FALSE_PASS) / math.log(L / m)))
    for _ in range(points):
        r = rng.randrange(m)
        pw = _powers(r, L, m)
        if _dot(a, pw, m) * _dot(b, pw, m) % m != _dot(c, pw, m):
            return False, f"{points} points"
    return True, f"{points} point{'s' if points > 1 else ''}"


def _path_name(n: int, m: int) -> str:
    from ntt_cy._routing import product_route

    route = product_route(1, n, n, m, "linear")
    if route.path == "crt" and route.basis is not None:
        bits = 30 if route.basis.dtype.itemsize == 4 else 62
        return f"CRT {route.basis.k}x{bits}-bit"
    return route.path


def cmd_demo(repeat: int, workers: int | None, seed: int | None) -> int:
    import numpy as np

    from ntt_cy.poly import polymul

    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    progress = Progress(len(DEMO_CASES))
    rows = []
    all_ok = True
    for k, (n, m, note) in enumerate(DEMO_CASES, 1):
        progress.update(k, f"n = {n}, modulus = {m}: multiplying")
        gen = np.random.default_rng(rng.getrandbits(64))
        dt = np.uint32 if m <= 1 << 32 else np.uint64
        a = gen.integers(0, m, size=n, dtype=dt)
        b = gen.integers(0, m, size=n, dtype=dt)
        c = polymul(a, b, m, workers=workers)          # warm-up: plans and tables
        runs = repeat if n > 4096 else 100 * repeat
        t0 = time.perf_counter()
        for _ in range(runs):
            polymul(a, b, m, workers=workers)
        latency = (time.perf_counter() - t0) / runs * 1e6
        progress.update(k, f"n = {n}, modulus = {m}: checking")
        ok, how = check_product(a.tolist(), b.tolist(), c.tolist(), m, rng)
        all_ok &= ok
        rows.append((f"n={n} m={m}", note, _path_name(n, m), f"{'OK' if ok else 'FAIL'} ({how})",
                     f"{latency:.1f}", str(runs)))
    progress.done()
    header = ("case", "note", "path", "check", "avg latency (us)", "runs")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    right = {4, 5}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))
    from ntt_cy._support.threads import requested_workers

    print(f"\nlinear products of two random degree-(n-1) polynomials, {requested_workers(workers)} "
          f"thread(s), seed {seed}; checks: exact Python-int schoolbook, or evaluation at "
          f"random points (false pass < {FALSE_PASS:g})")
    print("all checks passed" if all_ok else "SOME CHECKS FAILED")
    return EXIT_OK if all_ok else EXIT_FAIL
