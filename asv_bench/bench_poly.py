"""asv suite of the products: polymul (classic cases, small, list and mixed-width inputs,
schoolbook sizes, wrapped products, CRT moduli, linear and negacyclic batches, peak memory)
and bigmul.

API under test: ``ntt_cy.polymul(a, b, modulus, *, kind=..., workers=...)`` and
``ntt_cy.bigmul(x, y)``; commits without them skip these benchmarks.
"""
import random
import threading
import tracemalloc

import numpy as np

from asv_bench._common import (
    P30, P51, P_CLASSIC_23, P_CLASSIC_27, P_CLASSIC_29, P_DILITHIUM, check_workers,
    ntt_cy_attr, random_lanes,
)

# "n/p" strings: the products `ntt-cy demo` multiplies (n = 4 and 131072 modulo the
# classic NTT primes, see _common), with 998244353 and a 51-bit prime beside them.
CLASSIC = [f"4/{P_CLASSIC_23}", f"131072/{P_CLASSIC_23}", f"131072/{P_CLASSIC_27}",
           f"131072/{P_CLASSIC_29}", f"131072/{P30}", f"131072/{P51}"]


def _operands(n, modulus, rows=None, seed=1):
    """Two random operands with coefficients in [0, modulus); uint32/uint64 when they fit."""
    shape = n if rows is None else (rows, n)
    if modulus <= 2**32:
        dtype = np.uint32
    elif modulus <= 2**64:
        dtype = np.uint64
    else:
        raise NotImplementedError("moduli above 2^64 are not benchmarked")
    return (random_lanes(shape, modulus, dtype, seed),
            random_lanes(shape, modulus, dtype, seed + 1))


def _polymul_or_skip(a, b, modulus, kind, workers):
    """One call in setup: a ValueError/TypeError means this commit rejects the case."""
    polymul = ntt_cy_attr("polymul")
    try:
        polymul(a, b, modulus, kind=kind, workers=workers)
    except (ValueError, TypeError) as exc:
        raise NotImplementedError(f"polymul rejects this case: {exc}")
    return polymul


class ClassicPolymul:
    """Linear product of two degree-(n-1) polynomials, the classic cases (CLASSIC)."""
    params = (CLASSIC, [1, 2])
    param_names = ["n/p", "workers"]
    timeout = 120

    def setup(self, case, workers):
        check_workers(workers)
        n, self.p = map(int, case.split("/"))
        self.a, self.b = _operands(n, self.p)
        self.polymul = _polymul_or_skip(self.a, self.b, self.p, "linear", workers)

    def time_polymul(self, case, workers):
        self.polymul(self.a, self.b, self.p, kind="linear", workers=workers)


class SmallPolymul:
    """One short product, one thread: the call's fixed cost (checks, route, allocation)
    against its arithmetic.  n = 16 takes the schoolbook, 64 and 256 the transforms
    (direct primes) or the one-call CRT product (10^9 + 7)."""
    params = ([16, 64, 256], [P30, P51, 10**9 + 7])
    param_names = ["n", "modulus"]

    def setup(self, n, modulus):
        self.a, self.b = _operands(n, modulus)
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, "linear", 1)

    def time_polymul(self, n, modulus):
        self.polymul(self.a, self.b, modulus, workers=1)


class ListPolymul:
    """A product of two Python lists of ints, one thread, as a user without numpy arrays
    calls it: reading the lists against the product itself."""
    params = ([16, 256, 4096], [P30, 10**9 + 7])
    param_names = ["n", "modulus"]

    def setup(self, n, modulus):
        a, b = _operands(n, modulus)
        self.a, self.b = a.tolist(), b.tolist()
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, "linear", 1)

    def time_polymul(self, n, modulus):
        self.polymul(self.a, self.b, modulus, workers=1)



class MixedWidthPolymul:
    """One row of numpy's default int64 times a uint32 row (another product's result),
    one thread, against the same product of two uint32 rows (SmallPolymul,
    SmallWrappedPolymul): the cost of reading operands of two widths."""
    params = ([256, 4096, 8192], [P30, 10**9 + 7], ["linear", "cyclic"])
    param_names = ["n", "modulus", "kind"]

    def setup(self, n, modulus, kind):
        a, self.b = _operands(n, modulus)
        self.a = a.astype(np.int64)
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, kind, 1)

    def time_polymul(self, n, modulus, kind):
        self.polymul(self.a, self.b, modulus, kind=kind, workers=1)

class SchoolbookPolymul:
    """Products the schoolbook serves (one thread): a batch of short rows, one short
    row, and a short operand against a long one, for a modulus of 32-bit lanes
    (10^9 + 7) and one of 64-bit lanes (2^61 - 1).  Case "rows x na x nb"."""
    params = (["1000x32x32", "1x48x48", "1x16x4096"], [10**9 + 7, 2**61 - 1])
    param_names = ["rows x na x nb", "modulus"]

    def setup(self, case, modulus):
        rows, na, nb = map(int, case.split("x"))
        a, _ = _operands(na, modulus, rows=rows, seed=3)
        b, _ = _operands(nb, modulus, rows=rows, seed=5)
        self.a, self.b = (a[0], b[0]) if rows == 1 else (a, b)
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, "linear", 1)

    def time_polymul(self, case, modulus):
        self.polymul(self.a, self.b, modulus, workers=1)


class SmallWrappedPolymul:
    """One product modulo x^n + 1 or x^n - 1 (lattice-crypto sizes), one thread: n-point
    transforms mod a prime that has the roots (8380417), the folded linear product
    otherwise (10^9 + 7)."""
    params = ([256, 1024], [P_DILITHIUM, 10**9 + 7], ["negacyclic", "cyclic"])
    param_names = ["n", "modulus", "kind"]

    def setup(self, n, modulus, kind):
        self.a, self.b = _operands(n, modulus)
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, kind, 1)

    def time_polymul(self, n, modulus, kind):
        self.polymul(self.a, self.b, modulus, kind=kind, workers=1)


class CRTPolymul:
    """Non-NTT-friendly moduli (multi-prime CRT): 10^9+7 and the Mersenne prime 2^61-1."""
    params = ([10**9 + 7, 2**61 - 1], [256, 1024, 131072], [1, 2])
    param_names = ["modulus", "n", "workers"]
    timeout = 120

    def setup(self, modulus, n, workers):
        check_workers(workers)
        self.a, self.b = _operands(n, modulus)
        self.polymul = _polymul_or_skip(self.a, self.b, modulus, "linear", workers)

    def time_polymul(self, modulus, n, workers):
        self.polymul(self.a, self.b, modulus, kind="linear", workers=workers)


class NegacyclicBatch:
    """A batch of products modulo x^n + 1 (lattice-crypto shapes), rows x n."""
    params = ([256, 1024], [P_DILITHIUM, P30], [1, 2])
    param_names = ["n", "p", "workers"]

    def setup(self, n, p, workers):
        check_workers(workers)
        rows = 2**18 // n  # 256 KiB-ish of uint32 coefficients per operand
        self.a, self.b = _operands(n, p, rows=rows)
        self.polymul = _polymul_or_skip(self.a, self.b, p, "negacyclic", workers)

    def time_polymul_negacyclic(self, n, p, workers):
        self.polymul(self.a, self.b, p, kind="negacyclic", workers=workers)



class LinearBatch:
    """A batch of linear products of 16 rows, one thread: the transform rows live in
    scratch buffers reused from call to call, not fresh memory faulted in each call."""
    params = ([4096, 8192, 16384],)
    param_names = ["n"]

    def setup(self, n):
        self.a, self.b = _operands(n, P30, rows=16)
        self.polymul = _polymul_or_skip(self.a, self.b, P30, "linear", 1)

    def time_polymul(self, n):
        self.polymul(self.a, self.b, P30, workers=1)

class LongBatch:
    """A batch of 128 products, one thread, whose transform rows exceed the scratch
    buffers (8 MiB and more): it runs in pieces whose temporaries fit them, so a row
    costs about what it costs in a 16-row batch (LinearBatch), not the page faults of
    fresh temporaries each call.  Linear products mod a 30-bit prime (direct) and mod
    10^9 + 7 (three-prime CRT), negacyclic ones mod the prime.  time_polymul_out: into
    a numpy-allocated out, which the products are written into (no result array)."""
    params = ([f"linear/{P30}", f"linear/{10**9 + 7}", f"negacyclic/{P30}"],)
    param_names = ["kind/modulus"]

    def setup(self, case):
        kind, modulus = case.split("/")
        self.kind, self.m = kind, int(modulus)
        n = 8192 if kind == "linear" else 16384
        self.a, self.b = _operands(n, self.m, rows=128)
        self.polymul = _polymul_or_skip(self.a, self.b, self.m, kind, 1)
        self.out = np.empty_like(self.polymul(self.a, self.b, self.m, kind=kind, workers=1))

    def time_polymul(self, case):
        self.polymul(self.a, self.b, self.m, kind=self.kind, workers=1)

    def time_polymul_out(self, case):
        self.polymul(self.a, self.b, self.m, kind=self.kind, workers=1, out=self.out)


class PolymulMemory:
    """Peak memory of large products; the track_ version reports peak extra bytes
    allocated during a warm call, divided by the bytes of inputs + output
    (the aim: at most 4, tables excluded)."""
    params = ([f"131072/{P30}", f"1048576/{P30}", f"131072/{10**9 + 7}", f"131072/{P51}",
               f"131072/{2**61 - 1}"],)
    param_names = ["n/modulus"]
    timeout = 120

    def setup(self, case):
        n, self.m = map(int, case.split("/"))
        self.a, self.b = _operands(n, self.m)
        self.polymul = ntt_cy_attr("polymul")

    def peakmem_polymul(self, case):
        self.polymul(self.a, self.b, self.m, kind="linear", workers=1)

    def track_peak_over_io_bytes(self, case):
        self.polymul(self.a, self.b, self.m, kind="linear", workers=1)  # plans, tables
        result = {}

        def measured_call():
            # a fresh thread has no scratch buffers yet (ntt_cy._support.scratch keeps them
            # per thread), so the ones this call needs count in the peak
            result["out"] = self.polymul(self.a, self.b, self.m, kind="linear", workers=1)

        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            worker = threading.Thread(target=measured_call)
            worker.start()
            worker.join()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        io_bytes = self.a.nbytes + self.b.nbytes + np.asarray(result["out"]).nbytes
        return peak / io_bytes

    track_peak_over_io_bytes.unit = "x (in+out bytes)"


class BigMul:
    """Product of two N-bit Python ints."""
    params = ([10**5, 10**6, 10**7],)
    param_names = ["bits"]
    timeout = 180

    def setup(self, bits):
        self.bigmul = ntt_cy_attr("bigmul")
        rng = random.Random(bits)
        self.x = rng.getrandbits(bits) | (1 << (bits - 1))
        self.y = rng.getrandbits(bits) | (1 << (bits - 1))
        if bits <= 10**5:  # cheap sanity check against CPython
            if self.bigmul(self.x, self.y) != self.x * self.y:
                raise AssertionError("ntt_cy.bigmul disagrees with CPython")

    def time_bigmul(self, bits):
        self.bigmul(self.x, self.y)

    def peakmem_bigmul(self, bits):
        self.bigmul(self.x, self.y)
