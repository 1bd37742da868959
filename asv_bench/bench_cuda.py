"""The GPU path (``ntt_cy.cuda``): same shapes as bench_ntt / bench_poly.

Skipped (NotImplementedError in setup) when ntt_cy.cuda cannot be imported or
reports no usable GPU, so CPU-only machines record "skipped", not "failed".
Host arrays in, host arrays out: timings include the transfers, which is what a
numpy caller pays; ``time_plan_forward`` reuses one plan.
"""
import numpy as np

from asv_bench._common import P30, P51, P_CLASSIC_29, random_lanes


def _cuda():
    try:
        from ntt_cy import cuda
    except Exception as exc:  # ImportError, or a driver error raised at import
        raise NotImplementedError(f"ntt_cy.cuda is not importable: {exc}")
    try:
        available = cuda.is_available()
    except Exception as exc:
        raise NotImplementedError(f"ntt_cy.cuda.is_available() failed: {exc}")
    if not available:
        raise NotImplementedError("no usable GPU (ntt_cy.cuda.is_available() is False)")
    return cuda


class CudaTransform:
    """One length-n forward / inverse transform mod 469762049 (2^26 | p - 1: 998244353
    stops at 2^23) on the GPU."""
    params = ([2**12, 2**17, 2**20, 2**24],)
    param_names = ["n"]
    timeout = 120

    def setup(self, n):
        self.cuda = _cuda()
        self.a = random_lanes(n, P_CLASSIC_29, np.uint32)
        try:
            self.plan = self.cuda.NTTPlan(n, P_CLASSIC_29)
            self.plan.forward(self.a)
            self.cuda.ntt(self.a, P_CLASSIC_29)
        except (ValueError, TypeError) as exc:
            raise NotImplementedError(f"ntt_cy.cuda rejects n={n}: {exc}")

    def time_ntt(self, n):
        self.cuda.ntt(self.a, P_CLASSIC_29)

    def time_intt(self, n):
        self.cuda.intt(self.a, P_CLASSIC_29)

    def time_plan_forward(self, n):
        self.plan.forward(self.a)


class CudaBatched:
    """A batch of 64 transforms of length 2^14 in one call."""

    def setup(self):
        self.cuda = _cuda()
        self.a = random_lanes((64, 2**14), P30, np.uint32)
        self.cuda.ntt(self.a, P30)

    def time_ntt_batch_64x16384(self):
        self.cuda.ntt(self.a, P30)


class CudaPolymul:
    """Linear products n = 131072 (the classic case) and 2^20, 30-bit and 51-bit primes."""
    params = ([2**17, 2**20], [P30, P51])
    param_names = ["n", "p"]
    timeout = 120

    def setup(self, n, p):
        self.cuda = _cuda()
        dtype = np.uint32 if p < 2**32 else np.uint64
        self.a = random_lanes(n, p, dtype, 1)
        self.b = random_lanes(n, p, dtype, 2)
        try:
            self.cuda.polymul(self.a, self.b, p)
        except (ValueError, TypeError, AttributeError) as exc:
            raise NotImplementedError(f"ntt_cy.cuda.polymul unavailable for p={p}: {exc}")

    def time_polymul(self, n, p):
        self.cuda.polymul(self.a, self.b, p)

    def peakmem_polymul(self, n, p):
        self.cuda.polymul(self.a, self.b, p)
