"""Every kernel build this CPU runs, side by side in one process, per prime and family.

    python asv_bench/scripts/compare_builds.py [--log2n 16] [--p P ...] [--repeat 12]

The kernel builds this CPU runs (ntt_cy._kernels.build_avx512, build_avx2,
build_portable) are imported together and given the same twiddle arrays; each forward
transform (in place, bit-reversed output, one thread) runs on every build in turn, the
order reversed every other round, so the machine's load drifts over all of them alike.
Prints ns per butterfly (best of `repeat`) and the speed-up of each build over the
portable one.  Results are not compared here (tests/support/test_isa.py does that bit
for bit).  The tables and modulus constants are the active build's (its Montgomery
width, its choice of double-precision twiddles), so where the builds differ in those
(uint64 lanes) the other builds do not run the path they take on their own:
ns_per_butterfly.py, one process per build, times each build as a user gets it.
"""
import argparse
import importlib
import time

import numpy as np

from ntt_cy._kernels.active import montgomery_bits
from ntt_cy._support.aligned import aligned_copy
from ntt_cy._support.checks import check_reduction
from ntt_cy._support.isa import supported_isas
from ntt_cy.plan import get_plan, modulus_constants

PRIMES = [998244353, 1337006139375617, 4611686018326724609, 2**64 - 2**32 + 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=16)
    ap.add_argument("--p", type=int, nargs="*", default=PRIMES)
    ap.add_argument("--repeat", type=int, default=12)
    args = ap.parse_args()
    isas = supported_isas()
    builds = {isa: importlib.import_module(f"ntt_cy._kernels.build_{isa}") for isa in isas}
    n = 1 << args.log2n
    butterflies = n // 2 * args.log2n
    print(f"forward NTT, n = 2^{args.log2n}, one thread, in place, bit-reversed; "
          f"ns per butterfly, best of {args.repeat}; x = portable time / build time\n")
    print("| p | lanes | reduction | " + " | ".join(isas) + " |")
    print("|---|---|---|" + "---|" * len(isas))
    for p in args.p:
        for dt in ([np.uint32, np.uint64] if p < 2**32 else [np.uint64]):
            plan = get_plan(n, p, dtype=dt)
            # the plan's own constants (the active build's Montgomery width), as its
            # tables were made with: every build transforms the same values
            modulus = modulus_constants(p, plan.dtype, montgomery_bits(p, plan.dtype.itemsize))
            x = np.random.default_rng(0).integers(0, min(p, 2**63), (1, n), dtype=np.uint64)
            x = aligned_copy(x.astype(dt))
            for fam in ("montgomery", "barrett", "lazy"):
                try:
                    check_reduction(fam, p, np.dtype(dt))
                except ValueError:
                    continue
                arrays = plan.tables(fam).arrays
                tables = {isa: m.TransformTables(fam, modulus, arrays, n, 0, 0)
                          for isa, m in builds.items()}
                best = dict.fromkeys(isas, float("inf"))
                for r in range(args.repeat):
                    for isa in (isas if r % 2 else isas[::-1]):
                        y = x.copy()
                        t0 = time.perf_counter()
                        builds[isa].forward(y, y, tables[isa], 1, False, False)
                        best[isa] = min(best[isa], time.perf_counter() - t0)
                cells = [f"{best[i] / butterflies * 1e9:.2f} ({best['portable'] / best[i]:.1f}x)"
                         for i in isas]
                print(f"| {p} | {np.dtype(dt).name} | {fam} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
