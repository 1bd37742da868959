"""Single-thread forward NTT timings for every kernel build, lane width and family.

    python tools/ns_per_butterfly.py [--log2n 17] [--p 998244353]

Each ISA runs in its own interpreter (the build is chosen at import); every
figure is the best of several runs of ntt_cy.ntt(a, p, workers=1, ...) on a
fixed array, natural order, so it includes the Python call overhead.
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
from ntt_cy._checks import check_reduction
from ntt_cy._ntt import ACTIVE_ISA
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=17)
    ap.add_argument("--p", type=int, default=998244353)
    args = ap.parse_args()
    from ntt_cy._isa import supported_isas

    print(f"forward NTT, n = 2^{args.log2n}, p = {args.p}, 1 thread\n")
    print("| kernel build | lanes | reduction | time | ns/butterfly |")
    print("|---|---|---|---|---|")
    for isa in supported_isas():
        env = dict(os.environ, NTT_CY_ISA=isa)
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.log2n), str(args.p)],
                             env=env, capture_output=True, text=True, check=True)
        for isa_name, lanes, fam, t, ns in json.loads(out.stdout):
            print(f"| {isa_name} | {lanes} | {fam} | {t * 1e3:.3f} ms | {ns:.2f} |")


if __name__ == "__main__":
    main()
