"""Timing leakage test of the constant-time calls (dudect-style: fixed vs random inputs).

    python asv_bench/scripts/dudect.py [--samples 40000] [--isa avx512 ...]

For each call the guide names constant-time ("Security and constant time" in
docs/guide.md: ntt / intt / NTTPlan.forward / polymul with assume_reduced=True,
q = 8380417 n = 256 and q = 12289 n = 512), every kernel build this
CPU runs times the call on two classes of input, interleaved at random: one fixed input
(all zeros, the input most likely to take a shortcut) and fresh random inputs in
[0, q).  The inputs are drawn before they are timed and each is copied into the same
buffer the same way, so that the two classes differ in their values alone.  Welch's t
statistic compares the two classes' timings, over all samples and over the samples
below several percentiles (dudect's cropping, which removes the interrupts and cache
misses that swamp a small difference); the largest |t| is reported.  |t| below 4.5: no difference found in this many samples; above 10: the
timing depends on the input (Reparaz, Balasch and Verbauwhede, "Dude, is my code
constant time?", DATE 2017).  Whole calls are timed, a few microseconds each with
their Python layers, so only a difference that is a sizeable part of that noise shows
(a few mispredicted branches per call may not).  This complements
tests/kernels/test_constant_time.py, which checks the portable and AVX2 builds
exactly under valgrind but cannot run AVX-512 code.
"""
import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, time
import numpy as np
import ntt_cy
from ntt_cy._kernels.active import ACTIVE_ISA

samples = int(sys.argv[1])
PERCENTILES = (100, 99, 95, 90, 75, 50)
BLOCK = 512   # samples whose inputs are drawn at once


def welch(x, y):
    return (x.mean() - y.mean()) / np.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size)


def largest_t(times, fixed):
    worst = 0.0
    for pct in PERCENTILES:
        keep = times <= np.percentile(times, pct)
        a, b = times[keep & fixed], times[keep & ~fixed]
        if a.size > 10 and b.size > 10:
            t = welch(a, b)
            worst = t if abs(t) > abs(worst) else worst
    return worst


def measure(call, buffers, q, rng):
    # The inputs of a block of samples are drawn before it is timed, one row a sample
    # (zeros for the fixed class), and every sample copies its row the same way: the
    # two classes differ in the values alone, not in the work around the call.
    fixed = rng.random(samples) < 0.5
    times = np.empty(samples)
    for _ in range(200):   # warm-up: plans, tables, caches
        call()
    for start in range(0, samples, BLOCK):
        stop = min(start + BLOCK, samples)
        rows = [rng.integers(0, q, (stop - start,) + buf.shape).astype(buf.dtype)
                for buf in buffers]
        for r in rows:
            r[fixed[start:stop]] = 0
        for i in range(start, stop):
            for buf, r in zip(buffers, rows):
                buf[...] = r[i - start]
            begin = time.perf_counter_ns()
            call()
            times[i] = time.perf_counter_ns() - begin
    return largest_t(times, fixed), float(np.median(times))


rng = np.random.default_rng(7)
rows = []
for q, n in ((8380417, 256), (12289, 512)):
    for kind in ("negacyclic", "cyclic"):
        a = np.zeros(n, np.uint32)
        b = np.zeros(n, np.uint32)
        cases = [
            (f"ntt {kind}", lambda: ntt_cy.ntt(a, q, kind=kind, assume_reduced=True), [a]),
            (f"intt {kind}", lambda: ntt_cy.intt(a, q, kind=kind, assume_reduced=True), [a]),
            (f"polymul {kind}", lambda: ntt_cy.polymul(a, b, q, kind=kind, assume_reduced=True),
             [a, b]),
        ]
        for lanes in (np.uint32, np.uint64):
            x = np.zeros(n, lanes)
            for family in ("montgomery", "barrett", "lazy"):
                plan = ntt_cy.NTTPlan(n, q, kind=kind, dtype=lanes, reduction=family)
                name = f"NTTPlan.forward {kind} {np.dtype(lanes).name} {family}"
                cases.append((name, lambda plan=plan, x=x: plan.forward(x, assume_reduced=True),
                              [x]))
        for name, call, buffers in cases:
            t, median = measure(call, buffers, q, rng)
            rows.append([ACTIVE_ISA, q, n, name, t, median])
print(json.dumps(rows))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=40000,
                    help="timed calls per case, both classes together")
    ap.add_argument("--isa", nargs="*", help="kernel builds to run (default: all this CPU runs)")
    args = ap.parse_args()
    if args.samples < 100:
        ap.error("--samples must be at least 100")
    from ntt_cy._support.isa import ISAS, supported_isas

    runnable = [isa for isa in supported_isas() if not args.isa or isa in args.isa]
    skipped = [isa for isa in ISAS if isa not in runnable]
    print(f"fixed (zeros) vs random inputs, {args.samples} samples a case, 1 thread; "
          f"|t| < 4.5: no leak found, > 10: leak\n")
    if skipped:
        print(f"(not run: {', '.join(skipped)})\n")
    print("| kernel build | q | n | call (assume_reduced=True) | median | t |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for isa in runnable:
        env = dict(os.environ, NTT_CY_ISA=isa, OMP_NUM_THREADS="1")
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.samples)], env=env,
                             capture_output=True, text=True, check=True)
        for isa_name, q, n, name, t, median in json.loads(out.stdout):
            print(f"| {isa_name} | {q} | {n} | {name} | {median / 1e3:.1f} us | {t:+.2f} |")
            worst = max(worst, abs(t))
    print(f"\nlargest |t|: {worst:.2f}")


if __name__ == "__main__":
    main()
