"""`ntt-cy bench`: ntt_cy side by side with the libraries a user would pick instead.

    python -m ntt_cy.bench [--quick] [--only ntt,polymul,bigmul] [--sizes 1024,2^17]
                           [--bits 1e5,1e6] [--repeat 7] [--json FILE] [--plot FILE.png]

In ONE process, every workload (cases.py) runs through ntt_cy and through each installed
competitor (libraries.py): python-flint (``nmod_poly`` / ``fmpz_mod_poly`` products,
``fmpz`` big integers), galois (``galois.ntt``), sympy (``ntt`` / ``convolution_ntt``,
small sizes), numpy (``np.convolve``, small sizes where it is exact), CPython ``int`` and
gmpy2.  Every answer is checked against ntt_cy's (any disagreement: exit status 1), then a
table gives medians for one thread and for all threads, and how many times faster ntt_cy
is ("x" = competitor time / ntt_cy time at the same thread count; single-threaded
libraries are compared with their one-thread time) (report.py).  A competitor that is not
installed is reported as such, never an error.  Timings (timing.py) are medians of
``--repeat`` samples, taken round by round across the libraries of a case (runner.py), so
the ratios are measured side by side; the first call of each library is untimed warm-up,
fast calls are looped so one sample lasts about a millisecond after a few milliseconds of
untimed calls, and slow ones stop sampling after ``--budget`` seconds.  Input conversion
(lists, flint/gmpy2 objects) happens before timing.  ``--plot`` draws the figure of plot.py.

The GPU figures are a separate command: ``python -m ntt_cy.bench.gpu`` (gpu.py); the
scaling of ntt_cy.dask on a cluster another: ``ntt-cy bench --dask [ADDRESS]``
(ntt_cy/dask/scaling.py).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

from ntt_cy.bench.cases import OPS, Case, default_cases
from ntt_cy.bench.libraries import LIBRARIES, Library
from ntt_cy.bench.plot import plot as write_plot
from ntt_cy.bench.report import build_config, format_table, results_json
from ntt_cy.bench.runner import load_warning, run, thread_counts

__all__ = ["main", "build_parser", "parse_sizes", "parse_bits", "parse_ops", "Case", "Library",
           "LIBRARIES", "default_cases", "run"]

# Past these, one case needs more memory than a benchmark machine is assumed to have
# (a 2^26-point polymul holds ~2 GiB of operands, transforms and competitors' copies).
MAX_SIZE = 1 << 26
MAX_BITS = 1 << 32


def parse_bits(text):
    """As parse_sizes, for bigmul operand sizes in bits (at most MAX_BITS)."""
    return parse_sizes(text, MAX_BITS, "bits")


def parse_sizes(text, limit=MAX_SIZE, what="sizes"):
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


def parse_ops(text):
    """'ntt,polymul' -> ("ntt", "polymul"): the operations --only keeps, each one of OPS."""
    ops = tuple(dict.fromkeys(tok for tok in text.replace(" ", "").split(",") if tok))
    unknown = [op for op in ops if op not in OPS]
    if unknown or not ops:
        raise argparse.ArgumentTypeError(f"invalid choice {text!r} (choose from "
                                         f"{', '.join(OPS)}, or several joined by commas)")
    return ops


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
        from matplotlib.figure import Figure

        kinds = Figure().canvas.get_supported_filetypes()
        ext = os.path.splitext(path)[1].lstrip(".").lower()
        if ext and ext not in kinds:   # (no extension: matplotlib writes png)
            return f"matplotlib cannot write .{ext} files (one of: {', '.join(sorted(kinds))})"
    return ""


def build_parser():
    """The options of ``ntt-cy bench``."""
    ap = argparse.ArgumentParser(
        prog="ntt-cy bench",
        description="Compare ntt_cy with python-flint, galois, sympy, numpy, CPython int and "
                    "gmpy2 on the same workloads in one process; answers are checked.")
    ap.add_argument("--only", type=parse_ops, metavar="|".join(OPS),
                    help="run these kinds of workload only (one, or several joined by "
                         "commas: ntt,polymul)")
    ap.add_argument("--sizes", type=parse_sizes,
                    help="ntt/polymul lengths, e.g. 1024,2^17 (default 2^10..2^20)")
    ap.add_argument("--bits", type=parse_bits,
                    help="bigmul operand sizes in bits, e.g. 1e5,1e6 (default 1e5,1e6,1e7)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="samples per timing, median reported (default 7; 3 with --quick)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of sampling per library and case (default 3; 0.1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test, not figures)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    ap.add_argument("--json", metavar="FILE", help="also write machine-readable results")
    ap.add_argument("--plot", metavar="FILE.png",
                    help="also draw time and speed-up against size, one panel pair per "
                         "workload (needs matplotlib)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    ap.add_argument("--dask", metavar="ADDRESS", nargs="?",
                    help="measure ntt_cy.dask's scaling instead, on LocalClusters or the "
                         "scheduler at ADDRESS (its options: ntt-cy bench --dask --help)")
    return ap


def main(argv=None) -> int:
    """Entry point of ``ntt-cy bench`` / ``python -m ntt_cy.bench``; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--dask" in argv:   # the scaling benchmark of ntt_cy.dask takes its own options
        from ntt_cy.dask.scaling import main as dask_main

        argv.remove("--dask")
        return dask_main(argv)
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
    if args.only and "bigmul" not in args.only and args.bits is not None:
        only = ",".join(args.only)
        print(f"error: --bits sets bigmul sizes; {only} takes --sizes (e.g. --sizes 2^17)",
              file=sys.stderr)
        return 2
    if args.only == ("bigmul",) and args.sizes is not None:
        print("error: --sizes sets ntt/polymul lengths; bigmul takes --bits (e.g. --bits 1e6)",
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

    cfg = build_config()
    print(f"ntt_cy {__version__} ({cfg.get('kernel_isa', '?')}; OpenMP {cfg.get('openmp', '?')}), "
          f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{threads[-1]} core{'s' * (threads[-1] > 1)}, {platform.machine()}")
    print(f"median of {repeat} samples; x = competitor time / ntt_cy time at the same thread "
          f"count (> 1: ntt_cy faster); all answers checked against ntt_cy")
    if busy:
        print(busy)
    print(format_table(rows, threads))
    print(f"\n({elapsed:.1f} s)")
    options = {"quick": args.quick, "only": args.only and ",".join(args.only), "sizes": args.sizes, "bits": args.bits,
               "repeat": repeat, "budget": budget, "seed": args.seed, "load_warning": busy}
    try:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results_json(rows, threads, options), f, indent=1)
        if args.plot:
            write_plot(rows, threads, args.plot)
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
