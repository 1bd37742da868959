"""Single-thread forward NTT timings for every kernel build, lane width and family.

    python asv_bench/scripts/ns_per_butterfly.py [--log2n 17] [--p 998244353]
    python asv_bench/scripts/ns_per_butterfly.py --sizes      # the active build across sizes
    python asv_bench/scripts/ns_per_butterfly.py --fields     # fields against 30-bit lazy

Each ISA runs in its own interpreter (the build is chosen at import); every
figure is the best of several runs of ntt_cy.ntt(a, p, workers=1, ...) on a
fixed array, natural order, so it includes the Python call overhead.  --sizes
times the kernel itself (in place, bit-reversed output, default family) for
n = 2^12 .. 2^22, to show how flat the cost per butterfly stays past the caches.
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
import sys, time
import numpy as np
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.aligned import aligned_copy
from ntt_cy.plan import get_plan
p = int(sys.argv[1])
cells = []
plan = None
for log2n in range(12, 23, 2):
    n = 1 << log2n
    if (p - 1) % n:   # p has no n-th root of unity: no transform of this length
        cells.append(f"| 2^{log2n} | - | - (2^{log2n} does not divide p - 1) |")
        continue
    plan = get_plan(n, p)
    tables = plan.tables(plan.reduction)
    x = aligned_copy(np.random.default_rng(0).integers(0, p, (1, n)).astype(plan.dtype))
    best = float("inf")
    for _ in range(max(5, min(200, (1 << 22) // n))):
        t = time.perf_counter()
        _ntt.forward(x, x, tables, 1, False)
        best = min(best, time.perf_counter() - t)
    cells.append(f"| 2^{log2n} | {best * 1e3:.3f} ms | {best / (n // 2 * log2n) * 1e9:.3f} |")
if plan is None:
    sys.exit(f"p = {p} supports none of the lengths 2^12..2^22 (p - 1 has too few factors 2)")
print(f"{_ntt.ACTIVE_ISA} build, {plan.reduction}, {np.dtype(plan.dtype).name} lanes\n")
print("| n | time | ns/butterfly |\n|---|---|---|\n" + "\n".join(cells))
"""

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
    ap.add_argument("--p", type=int, default=998244353)
    ap.add_argument("--sizes", action="store_true",
                    help="the active build's kernel, n = 2^12..2^22 (in place, bit-reversed)")
    ap.add_argument("--fields", action="store_true",
                    help="BabyBear, KoalaBear and Goldilocks against the 30-bit lazy rate")
    args = ap.parse_args()
    from ntt_cy.primes import is_prime

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
    if not args.sizes and (args.p - 1) % (1 << args.log2n):
        ap.error(f"2^{args.log2n} does not divide p - 1: no transform of that length mod {args.p}")
    if args.sizes:
        print(f"forward NTT kernel, p = {args.p}, 1 thread, in place, bit-reversed output\n")
        sys.exit(subprocess.run([sys.executable, "-c", SIZES, str(args.p)]).returncode)
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
