"""Two-thread calls under the OpenMP waiting libgomp was loaded with: how long idle
OpenMP threads spin before they sleep (GOMP_SPINCOUNT, OMP_WAIT_POLICY) decides what a
two-thread call costs on an idle machine and what it takes from a busy one.  Run it once
per setting, each in a fresh process:

    GOMP_SPINCOUNT=300000 python asv_bench/scripts/openmp_wait.py     # libgomp's own default
    python asv_bench/scripts/openmp_wait.py                           # ntt_cy's default
    OMP_WAIT_POLICY=passive python asv_bench/scripts/openmp_wait.py

idle, or beside a busy process started from another terminal (`setsid python3 -c "while
True: pass" &`) or in the same one (without setsid).  Prints medians in ms: ntt 2^14 with
workers=2, ntt 2^17 with workers=1 and 2, polymul 2^17 mod 998244353 with workers=1 and
2, polymul 2^17 mod 10^9 + 7 (CRT) with workers=2.
"""
import argparse

import numpy as np

import ntt_cy
from ntt_cy._support import openmp_env
from thread_scaling import median_ms   # (this script's folder is on sys.path)

P, M = 998244353, 10**9 + 7


def main():
    argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split())).parse_args()
    rng = np.random.default_rng(1)

    def residues(n, m):
        return rng.integers(0, m, n, dtype=np.uint64).astype(np.uint32)

    a14, a17, b17 = residues(1 << 14, P), residues(1 << 17, P), residues(1 << 17, P)
    x, y = residues(1 << 17, M), residues(1 << 17, M)
    cells = [
        median_ms(lambda: ntt_cy.ntt(a14, P, workers=2), 300, warmup=1),
        median_ms(lambda: ntt_cy.ntt(a17, P, workers=1), 100, warmup=1),
        median_ms(lambda: ntt_cy.ntt(a17, P, workers=2), 100, warmup=1),
        median_ms(lambda: ntt_cy.polymul(a17, b17, P, workers=1), 30, warmup=1),
        median_ms(lambda: ntt_cy.polymul(a17, b17, P, workers=2), 30, warmup=1),
        median_ms(lambda: ntt_cy.polymul(x, y, M, workers=2), 15, warmup=1),
    ]
    print(f"{openmp_env.described}\n"
          "ntt 2^14 w2 %.3f | ntt 2^17 w1 %.3f w2 %.3f | polymul 2^17 w1 %.2f w2 %.2f | "
          "CRT 2^17 w2 %.2f" % tuple(cells))


if __name__ == "__main__":
    main()
