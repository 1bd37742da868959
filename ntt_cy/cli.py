"""The `ntt-cy` command line (also `python -m ntt_cy`).

    ntt-cy demo [--repeat R] [--workers W] [--seed S]
    ntt-cy polymul INPUT [-o OUTPUT] [--kind KIND] [--workers W]
    ntt-cy info
    ntt-cy bench [ARGS ...]

Exit codes: 0 success; 1 a demo check failed, a subcommand is unavailable, or the
reader of the output left early (a closed pipe);
2 malformed input or bad usage (one line on stderr, never a traceback).
"""
from __future__ import annotations

import argparse
import importlib
import math
import os
import random
import sys
import time

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

class InputError(Exception):
    """Malformed input: the message is one line, naming the line at fault."""


class Progress:
    """`[k/total] label` on stderr, redrawn in place; silent unless stderr is a TTY."""

    def __init__(self, total: int, stream=None):
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


def _workers(text: str):
    from ntt_cy._support.threads import check_workers

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid worker count {text!r}") from None
    try:
        check_workers(value)   # the library's rules: -1 or 1..MAX_WORKERS
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


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
    demo.add_argument("--workers", type=_workers, default=None, metavar="W",
                      help="threads (-1 or omitted: all cores)")
    demo.add_argument("--seed", type=int, default=None, metavar="S",
                      help="seed for the operands and check points (default: random, printed)")

    poly = sub.add_parser(
        "polymul", help="multiply two polynomials read from a file",
        description="Read `n p` on the first line, then the n coefficients of a and the n "
                    "coefficients of b (integers in [0, p), whitespace separated, over any "
                    "number of lines), and write the 2n-1 coefficients of a*b mod p "
                    "(n with --kind cyclic/negacyclic) on one line.  p may be any integer "
                    ">= 1, prime or not.  Malformed input gives a one-line error naming the "
                    "line and exit code 2.",
    )
    poly.add_argument("input", metavar="INPUT", help="input file, or - for stdin")
    poly.add_argument("-o", "--output", metavar="OUTPUT", default="-",
                      help="output file (default: - for stdout)")
    poly.add_argument("--kind", choices=("linear", "cyclic", "negacyclic"), default="linear",
                      help="product modulo nothing, x^n - 1 or x^n + 1 (default: %(default)s)")
    poly.add_argument("--workers", type=_workers, default=None, metavar="W",
                      help="threads (-1 or omitted: all cores)")

    sub.add_parser("info", help="show the build configuration (show_config)",
                   description="Print ntt_cy.show_config(): version, compiler flags, OpenMP, "
                               "kernel ISA, cores, GPU availability.")
    sub.add_parser("bench", help="run the benchmark suite (arguments go to ntt_cy.bench)",
                   description="Forward every following argument to ntt_cy.bench.main; "
                               "`ntt-cy bench --help` shows its options.",
                   add_help=False)
    return parser


def main(argv=None) -> int:
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


def _run(argv: list) -> int:
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
        return cmd_polymul(args.input, args.output, args.kind, args.workers)
    if args.command == "info":
        return cmd_info()
    return cmd_bench([])  # pragma: no cover - handled above


# ---------------------------------------------------------------- info / bench

def cmd_info() -> int:
    from ntt_cy import show_config

    show_config()
    return EXIT_OK


def cmd_bench(argv) -> int:
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

def _digits_value(digits: str):
    """int(digits) for a string of ASCII digits, or None when it has more significant
    digits than Python's int() converts (sys.get_int_max_str_digits, 4300 by default)."""
    try:
        return int(digits.lstrip("0") or "0")
    except ValueError:
        return None


def read_problem(lines):
    """Parse `n p`, then n coefficients of a and n of b, from an iterable of lines.

    Returns (n, p, a, b) with Python-int lists; InputError (one line, naming the
    line) on anything malformed.
    """
    lineno = 0
    header = None
    it = iter(lines)
    for lineno, line in enumerate(it, 1):
        if line.strip():
            header = line.split()
            break
    if header is None:
        raise InputError("input is empty: expected 'n p' on the first line")
    if len(header) != 2:
        raise InputError(f"line {lineno}: expected the header 'n p' (two integers), "
                         f"got {len(header)} field(s)")
    values = []
    for tok, name in zip(header, ("n", "p")):
        if not (tok.isascii() and tok.isdigit()):
            raise InputError(f"line {lineno}: header {name} = {tok[:40]!r} is not a "
                             f"positive integer")
        value = _digits_value(tok)
        if value is None:
            raise InputError(f"line {lineno}: header {name} has {len(tok)} digits, more "
                             f"than Python converts")
        values.append(value)
    n, p = values
    if n < 1:
        raise InputError(f"line {lineno}: header n must be >= 1, got {n}")
    if p < 1:
        raise InputError(f"line {lineno}: header p must be >= 1, got {p}")
    want = 2 * n
    coeffs = []
    last = lineno
    for lineno, line in enumerate(it, lineno + 1):
        tokens = line.split()
        if not tokens:
            continue
        last = lineno
        if len(coeffs) + len(tokens) > want:
            raise InputError(f"line {lineno}: more than 2n = {want} coefficients "
                             f"(the header says n = {n})")
        for tok in tokens:
            sign = tok[:1] if tok[:1] in "+-" else ""
            digits = tok[len(sign):]
            if not (digits.isascii() and digits.isdigit()):
                raise InputError(f"line {lineno}: {tok[:40]!r} is not an integer")
            value = _digits_value(digits)
            if value is None:
                raise InputError(f"line {lineno}: a coefficient of {len(digits)} digits is "
                                 f"out of range [0, {p})")
            value = -value if sign == "-" else value
            if not 0 <= value < p:
                raise InputError(f"line {lineno}: coefficient {value} is out of range [0, {p})")
            coeffs.append(value)
    if len(coeffs) < want:
        raise InputError(f"line {last}: input ends after {len(coeffs)} coefficients, "
                         f"expected 2n = {want} (n = {n} for a, then n for b)")
    return n, p, coeffs[:n], coeffs[n:]


def _label(path):
    return "<stdin>" if path == "-" else path


def _open_input(path):
    if path == "-":
        return sys.stdin
    return open(path, "r", encoding="utf-8", errors="strict")


def cmd_polymul(path, output, kind, workers) -> int:
    from ntt_cy.poly import polymul

    progress = Progress(3)
    progress.update(1, f"reading {path}")
    try:
        stream = _open_input(path)
        try:
            n, p, a, b = read_problem(stream)
        finally:
            if stream is not sys.stdin:
                stream.close()
    except InputError as exc:
        progress.done()
        return _error(f"{_label(path)}: {exc}", EXIT_INPUT)
    except UnicodeDecodeError as exc:
        progress.done()
        return _error(f"{_label(path)}: not a text file ({exc.reason} at byte {exc.start})",
                      EXIT_INPUT)
    except OSError as exc:
        progress.done()
        return _error(f"cannot read {path}: {exc.strerror or exc}", EXIT_INPUT)
    progress.update(2, f"multiplying n = {n} mod {p}")
    try:
        result = polymul(a, b, p, kind=kind, workers=workers)
    except ValueError as exc:   # a well-formed problem the library refuses (e.g. p too large)
        progress.done()
        return _error(f"{_label(path)}: {exc}", EXIT_INPUT)
    except MemoryError:
        progress.done()
        return _error(f"{_label(path)}: out of memory for n = {n}", EXIT_FAIL)
    progress.update(3, "writing")
    text = " ".join(map(str, result.tolist())) + "\n"
    progress.done()
    if output == "-":
        _write_stdout(text)
        return EXIT_OK
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        return _error(f"cannot write {output}: {exc.strerror or exc}", EXIT_FAIL)
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

def _schoolbook_exact(a, b, m):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return [v % m for v in out]


def _powers(r, count, p):
    pw = [1] * count
    x = 1
    for i in range(1, count):
        x = x * r % p
        pw[i] = x
    return pw


def _dot(coeffs, pw, p):
    # sum c_i r^i mod p with Python ints (map/sum run at C speed)
    from operator import mul

    return sum(map(mul, coeffs, pw)) % p


def check_product(a, b, c, m, rng):
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


def _path_name(n, m):
    from ntt_cy._routing import product_route

    route = product_route(1, n, n, m, "linear")
    if route.path == "crt":
        bits = 30 if route.basis.dtype.itemsize == 4 else 62
        return f"CRT {route.basis.k}x{bits}-bit"
    return route.path


def cmd_demo(repeat, workers, seed) -> int:
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

    def line(cells):
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
