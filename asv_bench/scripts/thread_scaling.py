"""workers=2 vs workers=1 for the thread-scaling cases (forward NTT, p = 998244353).

    python asv_bench/scripts/thread_scaling.py [--repeat 15]

Median of `repeat` timings of NTTPlan.forward(a, workers=k) per case, 1 and 2 threads
alternating in one process, plus the default (workers=None).
"""
import argparse
import time

import numpy as np

import ntt_cy

CASES = [(2**10,), (2**12,), (2**17,), (2**20,), (2**22,), (64, 2**14), (256, 1024)]


def median_ms(f, repeat, warmup=0):
    """Median of `repeat` timed calls of f, in ms, after `warmup` untimed ones."""
    for _ in range(warmup):
        f()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2] * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    p = 998244353
    print("| shape | workers=1 | workers=2 | 2 vs 1 | default vs 1 |")
    print("|---|---|---|---|---|")
    for shape in CASES:
        a = np.random.default_rng(0).integers(0, p, shape).astype(np.uint32)
        plan = ntt_cy.NTTPlan(shape[-1], p)
        t1 = median_ms(lambda: plan.forward(a, workers=1), args.repeat)
        t2 = median_ms(lambda: plan.forward(a, workers=2), args.repeat)
        td = median_ms(lambda: plan.forward(a), args.repeat)
        name = " x ".join(f"2^{s.bit_length() - 1}" for s in shape)
        print(f"| {name} | {t1:.3f} ms | {t2:.3f} ms | {t1 / t2:.2f}x | {t1 / td:.2f}x |")


if __name__ == "__main__":
    main()
