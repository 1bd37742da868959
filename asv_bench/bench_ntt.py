"""asv suite of the transforms: sizes, lane widths, reduction families, kinds, batches,
int64 input, threads, plan creation, butterfly rate, thread scaling and peak memory.

Every call passes ``workers=`` explicitly.  Transforms write into a preallocated
``out`` so the timings are the kernels plus ntt_cy's input checks, not numpy's allocator.
"""
import numpy as np

from asv_bench._common import (
    LANES, P30, P32, P51, P51_ABOVE, P51_TOP, P62, P_BABYBEAR, P_CLASSIC_29, P_GOLDILOCKS,
    P_KOALABEAR, butterflies, check_workers, empty_like_kernel_rows, interleaved_medians,
    make_plan, median_seconds, ntt_cy_attr, random_lanes,
)

SIZES = [2**4, 2**10, 2**14, 2**17, 2**20, 2**22]


class Transform:
    """One length-n transform mod 998244353 (uint32 lanes, default family), 1 or 2 threads."""
    params = (SIZES, [1, 2])
    param_names = ["n", "workers"]
    timeout = 120

    def setup(self, n, workers):
        check_workers(workers)
        self.plan = make_plan(n, P30)
        self.a = random_lanes(n, P30, np.uint32)
        self.out = np.empty_like(self.a)
        self.plan.forward(self.a, out=self.out, workers=workers)  # build the tables once

    def time_forward(self, n, workers):
        self.plan.forward(self.a, out=self.out, workers=workers)

    def time_inverse(self, n, workers):
        self.plan.inverse(self.a, out=self.out, workers=workers)


class Families:
    """Lane width x reduction family x kind, single thread (u32: p = 998244353, u64: 51-bit p)."""
    params = (["u32", "u64"], ["montgomery", "barrett", "lazy"], ["cyclic", "negacyclic"],
              [2**10, 2**17])
    param_names = ["lane", "reduction", "kind", "n"]

    def setup(self, lane, reduction, kind, n):
        p, dtype = LANES[lane]
        self.plan = make_plan(n, p, dtype=dtype, kind=kind, reduction=reduction)
        self.a = random_lanes(n, p, dtype)
        self.out = np.empty_like(self.a)
        self.plan.forward(self.a, out=self.out, workers=1)

    def time_forward(self, lane, reduction, kind, n):
        self.plan.forward(self.a, out=self.out, workers=1)

    def time_inverse(self, lane, reduction, kind, n):
        self.plan.inverse(self.a, out=self.out, workers=1)


class EdgeModuli:
    """Moduli at the edges of the lane ranges and kernel paths, default family, n = 2^14:
    uint32 lazy with values in [0, p) (BabyBear), no lazy on uint32 (2281701377), the
    goldilocks family, the top of the AVX2 double-precision uint64 kernels and just above
    it, a 62-bit prime; time and ns per butterfly."""
    params = ([P_BABYBEAR, P32, P51_TOP, P51_ABOVE, P62, P_GOLDILOCKS],)
    param_names = ["p"]

    def setup(self, p):
        n = 2**14
        self.plan = make_plan(n, p)
        self.a = random_lanes(n, p, self.plan.dtype)
        self.out = np.empty_like(self.a)
        self.plan.forward(self.a, out=self.out, workers=1)

    def time_forward(self, p):
        self.plan.forward(self.a, out=self.out, workers=1)

    def track_forward_ns_per_butterfly(self, p):
        t = median_seconds(lambda: self.plan.forward(self.a, out=self.out, workers=1))
        return t * 1e9 / butterflies(2**14)

    track_forward_ns_per_butterfly.unit = "ns/butterfly"


class Batched:
    """Batches of transforms (rows x n), along the last axis and along axis 0."""
    params = (["1024x16", "4096x256", "64x16384", "8x131072"], [1, 2])
    param_names = ["shape", "workers"]

    def setup(self, shape, workers):
        check_workers(workers)
        rows, n = map(int, shape.split("x"))
        self.plan = make_plan(n, P30)
        self.a = random_lanes((rows, n), P30, np.uint32)
        self.out = np.empty_like(self.a)
        self.a_t = np.ascontiguousarray(self.a.T)  # (n, rows): transform along axis 0
        self.out_t = np.empty_like(self.a_t)
        self.plan.forward(self.a, out=self.out, workers=workers)

    def time_forward(self, shape, workers):
        self.plan.forward(self.a, out=self.out, workers=workers)

    def time_forward_axis0(self, shape, workers):
        self.plan.forward(self.a_t, axis=0, out=self.out_t, workers=workers)


class FunctionAPI:
    """ntt_cy.ntt / intt (cached plan lookup + checks + allocation), single thread;
    n = 16 and 256 measure mostly the call itself."""
    params = ([2**4, 2**8, 2**10, 2**17],)
    param_names = ["n"]

    def setup(self, n):
        self.ntt = ntt_cy_attr("ntt")
        self.intt = ntt_cy_attr("intt")
        self.a = random_lanes(n, P30, np.uint32)
        self.ntt(self.a, P30, workers=1)

    def time_ntt(self, n):
        self.ntt(self.a, P30, workers=1)

    def time_intt(self, n):
        self.intt(self.a, P30, workers=1)



class Int64Input:
    """ntt_cy.ntt / intt of numpy's default int64 rows, single thread (values below a
    30-bit prime, so uint32 lanes): the conversion to lanes against FunctionAPI's
    uint32 input of the same sizes.  256x16384: a batch whose lanes exceed the scratch
    buffers, converted piece by piece."""
    params = (["1024", "8192", "131072", "16x4096", "256x16384"],)
    param_names = ["shape"]

    def setup(self, shape):
        self.ntt = ntt_cy_attr("ntt")
        self.intt = ntt_cy_attr("intt")
        dims = tuple(int(d) for d in shape.split("x"))
        self.a = random_lanes(dims, P30, np.uint32).astype(np.int64)
        self.ntt(self.a, P30, workers=1)

    def time_ntt(self, shape):
        self.ntt(self.a, P30, workers=1)

    def time_intt(self, shape):
        self.intt(self.a, P30, workers=1)

class ConvolutionRoundTrip:
    """forward(bit_reversed=True) then inverse(bit_reversed=True): the convolution path."""
    params = ([2**10, 2**17], [1, 2])
    param_names = ["n", "workers"]

    def setup(self, n, workers):
        check_workers(workers)
        self.plan = make_plan(n, P30)
        self.a = random_lanes(n, P30, np.uint32)
        self.tmp = np.empty_like(self.a)
        self.roundtrip(workers)

    def roundtrip(self, workers):
        self.plan.forward(self.a, out=self.tmp, workers=workers, bit_reversed=True)
        self.plan.inverse(self.tmp, out=self.tmp, workers=workers, bit_reversed=True)

    def time_roundtrip(self, n, workers):
        self.roundtrip(workers)


class PlanCreation:
    """NTTPlan construction plus its first table build (default family) and call."""
    params = ([2**10, 2**17, 2**20, 2**22],)
    param_names = ["n"]

    def setup(self, n):
        make_plan(n, P30)
        self.a = random_lanes(n, P30, np.uint32)

    def time_plan_and_first_forward(self, n):
        make_plan(n, P30).forward(self.a, workers=1)


class ButterflyRate:
    """Nanoseconds per radix-2 butterfly (median of repeated single-thread forwards)."""
    params = ([2**12, 2**17, 2**22], ["u32", "u64"], ["montgomery", "barrett", "lazy"])
    param_names = ["n", "lane", "reduction"]
    timeout = 120

    def setup(self, n, lane, reduction):
        p, dtype = LANES[lane]
        self.plan = make_plan(n, p, dtype=dtype, reduction=reduction)
        self.a = random_lanes(n, p, dtype)
        self.out = np.empty_like(self.a)

    def track_forward_ns_per_butterfly(self, n, lane, reduction):
        t = median_seconds(lambda: self.plan.forward(self.a, out=self.out, workers=1))
        return t * 1e9 / butterflies(n)

    track_forward_ns_per_butterfly.unit = "ns/butterfly"


def bit_reversed_forward(n, p, dtype):
    """A call of a length-n plan's forward (default family, one thread, bit-reversed
    output, into a preallocated out) on fixed random values mod p."""
    plan = make_plan(n, p, dtype=dtype)
    a = random_lanes(n, p, dtype)
    out = np.empty_like(a)
    return lambda: plan.forward(a, out=out, workers=1, bit_reversed=True)


class SizeFlatness:
    """Cost per butterfly at n = 2^22 over the one at n = 2^17, a transform that just fits
    a core's L2 (one thread, bit-reversed output, default family): how flat the rate
    stays once the data lives in memory (the aim is at most 1.25).  32-bit lanes: p =
    469762049 and BabyBear; 64-bit lanes: p = 1337006139375617 and Goldilocks.
    `python asv_bench/scripts/ns_per_butterfly.py --sizes` prints the whole sweep."""
    params = (["u32", "babybear", "u64", "goldilocks"],)
    param_names = ["field"]
    timeout = 180
    FIELDS = {"u32": (P_CLASSIC_29, np.uint32), "babybear": (P_BABYBEAR, np.uint32),
              "u64": (P51, np.uint64), "goldilocks": (P_GOLDILOCKS, np.uint64)}

    def setup(self, field):
        p, dtype = self.FIELDS[field]
        self.calls = [bit_reversed_forward(n, p, dtype) for n in (2**17, 2**22)]

    def track_ratio_2_22_to_2_17(self, field):
        # samples interleaved: both sizes see the same load of a shared machine
        t17, t22 = interleaved_medians(self.calls, min_rounds=7, budget=1.0)
        return (t22 / butterflies(2**22)) / (t17 / butterflies(2**17))

    track_ratio_2_22_to_2_17.unit = "x"


class FieldRatio:
    """Cost per butterfly of a special field over the 30-bit lazy rate of the same build
    (p = 998244353, uint32 lanes), n = 2^17, one thread, bit-reversed output, each
    field's default family: BabyBear and KoalaBear (uint32 lanes, values in [0, p); the
    aim is at most 1.2) and Goldilocks (uint64 lanes, the goldilocks family; the aim is
    at most 2.5).  `python asv_bench/scripts/ns_per_butterfly.py --fields` prints every
    build's."""
    params = (["babybear", "koalabear", "goldilocks"],)
    param_names = ["field"]
    timeout = 120
    FIELDS = {"babybear": (P_BABYBEAR, np.uint32), "koalabear": (P_KOALABEAR, np.uint32),
              "goldilocks": (P_GOLDILOCKS, np.uint64)}

    def setup(self, field):
        self.calls = [bit_reversed_forward(2**17, p, dtype)
                      for p, dtype in ((P30, np.uint32), self.FIELDS[field])]

    def track_ratio_to_30_bit_lazy(self, field):
        # samples interleaved: both fields see the same load of a shared machine; the
        # same n, so the ratio of times is the ratio per butterfly
        t30, t_field = interleaved_medians(self.calls, min_rounds=7, budget=1.0)
        return t_field / t30

    track_ratio_to_30_bit_lazy.unit = "x"


class ThreadScaling:
    """Speed-up of workers=2 over workers=1 (on two idle cores the aim for these shapes is
    at least 1.7x)."""
    params = (["1x1048576", "64x16384", "1x1024"],)
    param_names = ["shape"]
    timeout = 120

    def setup(self, shape):
        check_workers(2)
        rows, n = map(int, shape.split("x"))
        self.plan = make_plan(n, P30)
        self.a = random_lanes((rows, n), P30, np.uint32)
        self.out = empty_like_kernel_rows(self.a)   # numpy's own: 16 bytes past a page

    def track_speedup_2_vs_1_workers(self, shape):
        # samples interleaved: on a shared machine two separate medians drift apart
        # with the host's load, their ratio with them
        t1, t2 = interleaved_medians([
            lambda: self.plan.forward(self.a, out=self.out, workers=1),
            lambda: self.plan.forward(self.a, out=self.out, workers=2)])
        return t1 / t2

    track_speedup_2_vs_1_workers.unit = "x"


class LargeMemory:
    """Peak resident memory of a 2^22 forward transform (input + output + tables)."""
    params = (["u32", "u64"],)
    param_names = ["lane"]

    def setup(self, lane):
        p, dtype = LANES[lane]
        self.p, self.dtype = p, dtype
        self.a = random_lanes(2**22, p, dtype)

    def peakmem_forward_2_22(self, lane):
        make_plan(2**22, self.p, dtype=self.dtype).forward(self.a, workers=1)
