"""Vectorised reduction primitives on their own (element-wise modular products).

These live in private extension modules (``ntt_cy._kernels.active.pointwise_mul``,
``ntt_cy._kernels.elementwise.mul_mod``; in older commits ``ntt_cy._ntt`` and
``ntt_cy._vecarith``); commits without them skip these benchmarks.
"""
import numpy as np

from asv_bench._common import LANES, check_workers, ntt_cy_attr, random_lanes

N = 2**16


class PointwiseMul:
    """out = a * b * factor mod p (the transform-domain product of polymul), Barrett."""
    params = (["u32", "u64"], [1, 2])
    param_names = ["lane", "workers"]

    def setup(self, lane, workers):
        check_workers(workers)
        self.kernel = ntt_cy_attr("_kernels.active.pointwise_mul", "_ntt.pointwise_mul")
        p, dtype = LANES[lane]
        self.m = ntt_cy_attr("plan.modulus_constants")(p, np.dtype(dtype))
        self.a = random_lanes((1, N), p, dtype, 1)
        self.b = random_lanes((1, N), p, dtype, 2)
        self.out = np.empty_like(self.a)
        self.factor = 12345

    def time_pointwise_mul(self, lane, workers):
        self.kernel(self.a, self.b, self.out, self.m, self.factor, workers)


class MulMod:
    """One modular product per element in each reduction family, exactly as the butterflies do it."""
    params = (["u32", "u64"], ["montgomery", "barrett", "shoup"])
    param_names = ["lane", "family"]

    def setup(self, lane, family):
        self.kernel = ntt_cy_attr("_kernels.elementwise.mul_mod", "_vecarith.mul_mod")
        p, dtype = LANES[lane]
        self.m = ntt_cy_attr("plan.modulus_constants")(p, np.dtype(dtype))
        self.a = random_lanes(N, p, dtype, 1)
        self.b = random_lanes(N, p, dtype, 2)
        self.out = np.empty_like(self.a)
        try:
            self.kernel(family, self.a, self.b, self.out, self.m)
        except (ValueError, TypeError) as exc:
            raise NotImplementedError(f"mul_mod rejects {family!r} on {lane}: {exc}")

    def time_mul_mod(self, lane, family):
        self.kernel(family, self.a, self.b, self.out, self.m)


class PublicMulMod:
    """ntt_cy.mul_mod, one thread, 2^16 and 2^20 factors mod a 30-bit prime: uint32
    factors (the lanes as they are) against numpy's default int64 (converted into
    scratch buffers, one pass each)."""
    params = (["uint32", "int64"], [2**16, 2**20])
    param_names = ["dtype", "n"]

    def setup(self, dtype, n):
        self.mul_mod = ntt_cy_attr("mul_mod")
        p = LANES["u32"][0]
        self.p = p
        self.a = random_lanes(n, p, np.uint32, 1).astype(dtype)
        self.b = random_lanes(n, p, np.uint32, 2).astype(dtype)
        self.mul_mod(self.a, self.b, p, workers=1)

    def time_mul_mod(self, dtype, n):
        self.mul_mod(self.a, self.b, self.p, workers=1)
