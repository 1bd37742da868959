"""tools/fft_prototype.c beside one prime of ntt_cy's CRT product, in one process.

    python tools/fft_vs_prime.py [--repeat 60]

The CRT product mod 10^9 + 7 at n = 2^17 runs three primes, each one padded_product of
length 2^18 (two zero-padded forwards, the pointwise product inside the inverse).  The
prototype computes all 2^18 - 1 coefficients approximately (c mod x^M - i by a weighted
double-precision FFT of length M = 2^17), which with two primes would fix c exactly.
Both are timed alternately, one thread; the prototype is compiled here with gcc
(-O3 -mavx2 -mfma: an AVX2 CPU).  Then the prototype's values are checked against the
exact coefficients at sampled indices (Python ints); exit status 1 if an error reaches
2^40.
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from ntt_cy import _ntt, crt
from ntt_cy.poly import _plan

M = 1 << 17
MODULUS = 10**9 + 7


def build(tmp):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fft_prototype.c")
    lib = os.path.join(tmp, "libfft_prototype.so")
    subprocess.run(["gcc", "-O3", "-mavx2", "-mfma", "-shared", "-fPIC", src, "-o", lib, "-lm"],
                   check=True)
    return ctypes.CDLL(lib)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=60)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    a = rng.integers(0, MODULUS, M, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, MODULUS, M, dtype=np.uint64).astype(np.uint32)
    with tempfile.TemporaryDirectory() as tmp:
        lib = build(tmp)
        lib.fft_setup()
        u32 = ctypes.POINTER(ctypes.c_uint32)
        ap_, bp_ = a.ctypes.data_as(u32), b.ctypes.data_as(u32)

        p = crt.prime_pool(np.uint32, crt.MIN_ADICITY[np.dtype(np.uint32)])[0]
        plan = _plan(2 * M, p, np.dtype(np.uint32), "cyclic")
        tables = plan.tables(plan.reduction)
        a2, b2 = a.reshape(1, M), b.reshape(1, M)
        dst, work = np.empty((1, 2 * M), np.uint32), np.empty((1, 2 * M), np.uint32)
        n_inv = pow(2 * M, -1, p)

        def one_prime():
            _ntt.padded_product(a2, b2, dst, work, tables, 1, n_inv, MODULUS > p)

        def fft():
            lib.fft_product(ap_, bp_)

        times = {"one prime (padded_product 2^18)": [], "FFT prototype": []}
        for _ in range(args.repeat):
            for name, f in zip(times, (one_prime, fft)):
                t0 = time.perf_counter()
                f()
                times[name].append(time.perf_counter() - t0)
        med = {}
        for name, v in times.items():
            v.sort()
            med[name] = v[len(v) // 2]
            print(f"{name:34s} best {v[0] * 1e3:6.3f} ms  median {med[name] * 1e3:6.3f} ms")
        prime, proto = med.values()
        print(f"prototype / one prime (medians): {proto / prime:.2f}")

        re, im = np.empty(M), np.empty(M)
        f64 = ctypes.POINTER(ctypes.c_double)
        lib.fft_result(re.ctypes.data_as(f64), im.ctypes.data_as(f64))
        approx = np.concatenate([re, im])
        al, bl = [int(x) for x in a], [int(x) for x in b]
        worst = 0
        for k in [0, 1, M - 1, M, 2 * M - 2] + [int(i) for i in rng.integers(0, 2 * M - 1, 12)]:
            lo, hi = max(0, k - M + 1), min(k, M - 1)
            exact = sum(al[i] * bl[k - i] for i in range(lo, hi + 1))
            worst = max(worst, abs(round(float(approx[k])) - exact))
        print(f"largest |error| at 17 sampled coefficients: {worst} (2^{worst.bit_length()}); "
              f"two 30-bit primes tolerate ~2^58")
        return 0 if worst < 2**40 else 1


if __name__ == "__main__":
    sys.exit(main())
