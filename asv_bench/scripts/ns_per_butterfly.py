"""Single-thread forward NTT timings for every kernel build, lane width and family.

    python asv_bench/scripts/ns_per_butterfly.py [--log2n 17] [--p 998244353]
    python asv_bench/scripts/ns_per_butterfly.py --sizes [--range 10:24] [--p P]
                                                  # the active build across sizes
    python asv_bench/scripts/ns_per_butterfly.py --fields     # fields against 30-bit lazy

Each ISA runs in its own interpreter (the build is chosen at import); every
figure is the best of several runs of ntt_cy.ntt(a, p, workers=1, ...) on a
fixed array, natural order, so it includes the Python call overhead.  --sizes
times the kernel itself (in place, bit-reversed output) of every family for n = 2^10 ..
2^24 and prints each rate as a ratio to the one at n = 2^17, a transform that just fits a
core's L2, to show how flat the cost per butterfly stays past the caches (fields: see
SIZE_FIELDS; a prime without the roots of a size shows - there), timed as the CPU time of
the calling thread, which a shared machine's other processes do not inflate.
--fields times every build's default family ("auto") for the special fields, BabyBear
(2013265921, 2^30 < p < 2^31) and KoalaBear (2130706433) on uint32 lanes and Goldilocks
(2^64 - 2^32 + 1), as ratios to the lazy uint32 rate of p = 998244353 on the same
build, all in one interpreter per build and interleaved (best of several rounds).
"""
import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, timeit
import numpy as np
import ntt_cy
from ntt_cy._support.checks import check_reduction
from ntt_cy._kernels.active import ACTIVE_ISA
log2n, p = int(sys.argv[1]), int(sys.argv[2])
n = 1 << log2n
rows = []
for dt in ((np.uint32, np.uint64) if p < 2**32 else (np.uint64,)):
    a = np.random.default_rng(0).integers(0, p, n, dtype=np.uint64).astype(dt)
    for fam in ("montgomery", "barrett", "lazy"):
        try:
            check_reduction(fam, p, np.dtype(dt))
        except ValueError:
            continue
        f = lambda: ntt_cy.ntt(a, p, workers=1, reduction=fam, dtype=dt)
        f()
        number = max(1, int(0.05 / max(timeit.timeit(f, number=1), 1e-6)))
        t = min(timeit.repeat(f, number=number, repeat=7)) / number
        rows.append([ACTIVE_ISA, np.dtype(dt).name, fam, t, t / (n // 2 * log2n) * 1e9])
print(json.dumps(rows))
"""


SIZES = r"""
import json, sys, time
import numpy as np
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.aligned import aligned_copy
from ntt_cy._support.checks import check_reduction
from ntt_cy.plan import get_plan
lo, hi = int(sys.argv[1]), int(sys.argv[2])
rows = []
for name, p, dt in json.loads(sys.argv[3]):
    dt = np.dtype(dt)
    for fam in ("montgomery", "barrett", "lazy", "goldilocks"):
        try:
            check_reduction(fam, p, dt)
        except ValueError:
            continue
        cells = {}
        for log2n in range(lo, hi + 1):
            n = 1 << log2n
            if (p - 1) % n:   # p has no n-th root of unity: no transform of this length
                continue
            plan = get_plan(n, p, dtype=dt)
            tables = plan.tables(fam)
            x = aligned_copy(np.random.default_rng(0).integers(0, p, (1, n),
                                                               dtype=np.uint64).astype(dt))
            _ntt.forward(x, x, tables, 1, False)
            best = float("inf")
            for _ in range(max(5, min(200, (1 << 22) // n))):
                t = time.thread_time()   # the kernel runs on this thread alone
                _ntt.forward(x, x, tables, 1, False)
                best = min(best, time.thread_time() - t)
            cells[log2n] = best / (n // 2 * log2n) * 1e9
            del plan, tables, x
        rows.append([name, dt.name, fam, cells])
print(json.dumps([_ntt.ACTIVE_ISA, rows]))
"""

# The fields --sizes sweeps when no --p is given: (name, prime, lane dtype).
SIZE_FIELDS = (("998244353", 998244353, "uint32"), ("469762049", 469762049, "uint32"),
               ("BabyBear", 2013265921, "uint32"),
               ("1337006139375617", 1337006139375617, "uint64"),
               ("Goldilocks", 2**64 - 2**32 + 1, "uint64"))
# The size the --sizes ratios are taken against: a transform that just fits a core's L2.
REFERENCE_LOG2N = 17


def sizes_table(lo, hi, fields):
    """ns per butterfly of the active build's kernel across n = 2^lo..2^hi, one row per
    field, lane width and family, as ratios to the rate at n = 2^REFERENCE_LOG2N."""
    out = subprocess.run([sys.executable, "-c", SIZES, str(lo), str(hi), json.dumps(fields)],
                         capture_output=True, text=True, check=True)
    isa, rows = json.loads(out.stdout)
    if not any(cells for *_, cells in rows):
        sys.exit(f"{', '.join(name for name, *_ in fields)}: supports none of the lengths "
                 f"2^{lo}..2^{hi} (p - 1 has too few factors 2)")
    print(f"forward NTT kernel, {isa} build, 1 thread, in place, bit-reversed output; "
          f"ns per butterfly at n = 2^{REFERENCE_LOG2N}, then the ratio to it at each n "
          f"(-: p has no root of unity of that order)\n")
    sizes = range(lo, hi + 1)
    print("| field | lanes | family | ns @ 2^%d | " % REFERENCE_LOG2N
          + " | ".join(f"2^{k}" for k in sizes) + " |")
    print("|---|---|---|---|" + "---|" * len(sizes))
    for name, lanes, fam, cells in rows:
        ref = cells.get(str(REFERENCE_LOG2N))
        ratios = [f"{cells[str(k)] / ref:.2f}" if str(k) in cells and ref else "-"
                  for k in sizes]
        print(f"| {name} | {lanes} | {fam} | {f'{ref:.3f}' if ref else '-'} | "
              + " | ".join(ratios) + " |")


FIELDS = r"""
import json, sys, time
import numpy as np
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.aligned import aligned_copy
from ntt_cy.plan import get_plan
log2n = int(sys.argv[1])
n = 1 << log2n
runs = []
for name, p in (("30-bit (998244353)", 998244353), ("BabyBear", 2013265921),
                ("KoalaBear", 2130706433), ("Goldilocks", 2**64 - 2**32 + 1)):
    plan = get_plan(n, p)
    x = np.random.default_rng(0).integers(0, p, (1, n), dtype=np.uint64).astype(plan.dtype)
    runs.append([name, plan, plan.tables(plan.reduction), aligned_copy(x), float("inf")])
for _ in range(15):   # rounds: the fields interleaved, so a noisy spell hits them alike
    for run in runs:
        t = time.perf_counter()
        for _ in range(3):
            _ntt.forward(run[3], run[3], run[2], 1, False)
        run[4] = min(run[4], (time.perf_counter() - t) / 3)
print(json.dumps([[_ntt.ACTIVE_ISA, name, np.dtype(plan.dtype).name, plan.reduction,
                   best / (n // 2 * log2n) * 1e9, best / runs[0][4]]
                  for name, plan, _, _, best in runs]))
"""


def fields_table(log2n, isas):
    print(f"forward NTT kernel, n = 2^{log2n}, 1 thread, in place, bit-reversed output\n")
    print("| kernel build | field | lanes | reduction | ns/butterfly | / 30-bit lazy |")
    print("|---|---|---|---|---|---|")
    for isa in isas:
        env = dict(os.environ, NTT_CY_ISA=isa)
        out = subprocess.run([sys.executable, "-c", FIELDS, str(log2n)], env=env,
                             capture_output=True, text=True, check=True)
        for isa_name, name, lanes, fam, ns, ratio in json.loads(out.stdout):
            print(f"| {isa_name} | {name} | {lanes} | {fam} | {ns:.3f} | {ratio:.2f}x |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=17)
    ap.add_argument("--p", type=int, default=None,
                    help="the prime (default 998244353; with --sizes, default: the fields "
                         "998244353, 469762049, BabyBear, 1337006139375617, Goldilocks)")
    ap.add_argument("--sizes", action="store_true",
                    help="the active build's kernel across sizes, every family, as ratios to "
                         f"n = 2^{REFERENCE_LOG2N} (in place, bit-reversed)")
    ap.add_argument("--range", default="10:24", metavar="LO:HI",
                    help="with --sizes: n = 2^LO..2^HI (default 10:24)")
    ap.add_argument("--fields", action="store_true",
                    help="BabyBear, KoalaBear and Goldilocks against the 30-bit lazy rate")
    args = ap.parse_args()
    from ntt_cy.primes import is_prime

    if args.sizes:
        try:
            lo, hi = map(int, args.range.split(":"))
        except ValueError:
            ap.error(f"--range must read LO:HI, got {args.range!r}")
        if not 1 <= lo <= REFERENCE_LOG2N <= hi <= 30:
            ap.error(f"--range needs 1 <= LO <= {REFERENCE_LOG2N} <= HI <= 30, got {args.range}")
        if args.p is None:
            fields = SIZE_FIELDS
        elif is_prime(args.p) and args.p < 1 << 64:
            fields = ((str(args.p), args.p, "uint32" if args.p < 1 << 32 else "uint64"),)
        else:
            ap.error(f"--p {args.p} is not a prime below 2^64")
        sizes_table(lo, hi, fields)
        return
    if args.p is None:
        args.p = 998244353
    if not is_prime(args.p) or args.p >= 1 << 64:
        ap.error(f"--p {args.p} is not a prime below 2^64")
    if not 1 <= args.log2n <= 40:
        ap.error(f"--log2n must lie in 1..40, got {args.log2n}")
    if args.fields:
        if not 4 <= args.log2n <= 24:
            ap.error(f"--fields needs --log2n in 4..24, got {args.log2n}")
        from ntt_cy._support.isa import supported_isas
        fields_table(args.log2n, supported_isas())
        return
    if (args.p - 1) % (1 << args.log2n):
        ap.error(f"2^{args.log2n} does not divide p - 1: no transform of that length mod {args.p}")
    from ntt_cy._support.isa import ISAS, supported_isas

    print(f"forward NTT, n = 2^{args.log2n}, p = {args.p}, 1 thread\n")
    runnable = supported_isas()
    skipped = [isa for isa in ISAS if isa not in runnable]
    if skipped:
        print(f"(not timed: {', '.join(skipped)}, which this CPU cannot run or this "
              f"installation lacks)\n")
    print("| kernel build | lanes | reduction | time | ns/butterfly |")
    print("|---|---|---|---|---|")
    for isa in runnable:
        env = dict(os.environ, NTT_CY_ISA=isa)
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.log2n), str(args.p)],
                             env=env, capture_output=True, text=True, check=True)
        for isa_name, lanes, fam, t, ns in json.loads(out.stdout):
            print(f"| {isa_name} | {lanes} | {fam} | {t * 1e3:.3f} ms | {ns:.2f} |")


if __name__ == "__main__":
    main()
