"""The AVX2 build's double-precision uint64 arithmetic (ntt_cy/_kernels/simd/ntt64/avx2.h) against
exact integers, at the extremes of its operand ranges.

Whole transforms reach those extremes (|A| near 2p, twiddles near +-p/2) only by chance;
here a small C shim compiled with the build's compiler against the header itself calls
the product, the pointwise product and both butterflies on chosen operands, for moduli
up to the bound p < 2^51 - 2^29 (the largest odd modulus below it too: the bound does not
need a prime).  Where the CPU lacks AVX2/FMA the shim is compiled, not run.
"""
import ctypes
import random

import numpy as np
import pytest

from kernel_shims import compile_shim, compiler
from ntt_cy._support.cpu import cpu_features

BOUND = 2**51 - 2**29
MODULI = [3, 7340033, 998244353, 1337006139375617, 2251799235919873, BOUND - 1]

SHIM = r"""
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt64/dispatch.h"

/* r[i] = the product of a[i] and (w[i], wq[i]) as avx2_f64_mulmod returns it */
void shim_mulmod(uint64_t p, const double *a, const double *w, const double *wq, int64_t *r,
                 size_t n) {
    avx2_f64_mod m = avx2_f64_modulus(p);
    for (size_t i = 0; i < n; i += 4) {
        __m256d x = avx2_f64_mulmod(_mm256_loadu_pd(a + i), _mm256_loadu_pd(w + i),
                                   _mm256_loadu_pd(wq + i), &m);
        double out[4];
        _mm256_storeu_pd(out, x);
        for (int k = 0; k < 4; k++)
            r[i + k] = (int64_t)out[k];
    }
}

void shim_mulmod_pinv(uint64_t p, const double *a, const double *b, int64_t *r, size_t n) {
    avx2_f64_mod m = avx2_f64_modulus(p);
    for (size_t i = 0; i < n; i += 4) {
        __m256d x = avx2_f64_mulmod_pinv(_mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i), &m);
        double out[4];
        _mm256_storeu_pd(out, x);
        for (int k = 0; k < 4; k++)
            r[i + k] = (int64_t)out[k];
    }
}

/* one butterfly per lane, in place on u, v (DIF forward, DIT otherwise) */
void shim_bfly(int forward, uint64_t p, uint64_t *u, uint64_t *v, const double *w,
               const double *wq, size_t n) {
    avx2_f64_mod m = avx2_f64_modulus(p);
    for (size_t i = 0; i < n; i += 4) {
        __m256i x = vec_load(u + i), y = vec_load(v + i);
        avx2_f64_butterfly(forward, &x, &y, _mm256_loadu_pd(w + i), _mm256_loadu_pd(wq + i), &m, 0);
        vec_store(u + i, x);
        vec_store(v + i, y);
    }
}
"""


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    if compiler() is None:
        pytest.skip("no C compiler on PATH: the shim is compiled from source")
    lib = compile_shim(SHIM, ["-mavx2", "-mfma"], tmp_path_factory.mktemp("simd64_avx2"))
    # "avx2" stands for the _ntt_avx2 build's whole flag set, FMA included
    return ctypes.CDLL(str(lib)) if "avx2" in cpu_features() else None


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _balanced(w, p):
    return w if w <= (p - 1) // 2 else w - p


def _operands(p, rng):
    """(A, W) pairs: every extreme of |A| < 2p against every extreme of |W| <= (p-1)/2,
    then random ones near the extremes and anywhere."""
    a_edges = [0, 1, 2, p - 1, p, p + 1, 2 * p - 2, 2 * p - 1]
    a_edges = sorted({x for e in a_edges for x in (e, -e) if abs(x) < 2 * p})
    h = (p - 1) // 2
    w_edges = sorted({x for e in (0, 1, 2, h - 1, h) for x in (e, -e) if abs(x) <= h})
    pairs = [(a, w) for a in a_edges for w in w_edges]
    near = max(1, min(p // 4, 1 << 20))
    for _ in range(4000):
        a = rng.choice((1, -1)) * (2 * p - 1 - rng.randrange(near))
        w = rng.choice((1, -1)) * (h - rng.randrange(min(near, h + 1)))
        pairs.append((a, w))
        pairs.append((rng.randrange(-2 * p + 1, 2 * p), rng.randrange(-h, h + 1)))
    while len(pairs) % 4:
        pairs.append((0, 0))
    return pairs


@pytest.mark.parametrize("p", MODULI)
def test_mulmod_is_exact_at_the_extremes(shim, p):
    rng = random.Random(p)
    pairs = _operands(p, rng)
    a = np.array([x for x, _ in pairs], dtype=np.float64)
    w = np.array([y for _, y in pairs], dtype=np.float64)
    assert all(int(x) == ai for x, (ai, _) in zip(a, pairs))        # exact doubles
    wq = w / np.float64(p)                                           # as the plan builds it
    r = np.zeros(len(pairs), dtype=np.int64)
    if shim is None:
        return
    shim.shim_mulmod(ctypes.c_uint64(p), _ptr(a), _ptr(w), _ptr(wq), _ptr(r),
                     ctypes.c_size_t(len(pairs)))
    for (ai, wi), ri in zip(pairs, r.tolist()):
        assert -p < ri < p and (ri - ai * wi) % p == 0, (p, ai, wi, ri)


@pytest.mark.parametrize("p", [x for x in MODULI if x % 2])
def test_pointwise_product_is_exact_at_the_extremes(shim, p):
    # avx2_f64_mulmod_pinv: |A| <= p/2 + 1 (a balanced residue, or the first product
    # when the second factor is balanced) against 0 <= B < p.
    rng = random.Random(p + 1)
    h = (p + 1) // 2
    pairs = [(x, y) for x in sorted({0, 1, h - 1, h, -h, -(h - 1), -1})
             for y in sorted({0, 1, 2, p // 2, p - 2, p - 1}) if 0 <= y < p]
    pairs += [(rng.randrange(-h, h + 1), rng.randrange(p)) for _ in range(4000)]
    while len(pairs) % 4:
        pairs.append((0, 0))
    a = np.array([x for x, _ in pairs], dtype=np.float64)
    b = np.array([y for _, y in pairs], dtype=np.float64)
    r = np.zeros(len(pairs), dtype=np.int64)
    if shim is None:
        return
    shim.shim_mulmod_pinv(ctypes.c_uint64(p), _ptr(a), _ptr(b), _ptr(r),
                          ctypes.c_size_t(len(pairs)))
    for (ai, bi), ri in zip(pairs, r.tolist()):
        assert -p < ri < p and (ri - ai * bi) % p == 0, (p, ai, bi, ri)


@pytest.mark.parametrize("p", MODULI)
@pytest.mark.parametrize("forward", [1, 0])
def test_butterflies_keep_the_lazy_ranges(shim, p, forward):
    # DIF: in/out [0, 2p), (u + v, (u - v) w); DIT: in/out [0, 4p), (u + v w, u - v w).
    rng = random.Random(p + forward)
    top = 2 * p if forward else 4 * p
    edges = sorted({x for x in (0, 1, p - 1, p, 2 * p - 1, top - 2, top - 1) if x < top})
    quads = [(x, y) for x in edges for y in edges]
    # the operand extremes against the twiddles that balance to +-(p-1)/2, 1 and -1
    twiddles = [t for t in ((p - 1) // 2, (p + 1) // 2, 1, p - 1) for _ in quads]
    quads = quads * 4
    quads += [(rng.randrange(top), rng.randrange(top)) for _ in range(2000)]
    twiddles += [rng.randrange(p) for _ in range(2000)]
    while len(quads) % 4:
        quads.append((0, 0))
        twiddles.append(0)
    u = np.array([x for x, _ in quads], dtype=np.uint64)
    v = np.array([y for _, y in quads], dtype=np.uint64)
    w = np.array([_balanced(t, p) for t in twiddles], dtype=np.float64)
    wq = w / np.float64(p)
    if shim is None:
        return
    shim.shim_bfly(forward, ctypes.c_uint64(p), _ptr(u), _ptr(v), _ptr(w), _ptr(wq),
                   ctypes.c_size_t(len(quads)))
    for (x, y), t, x2, y2 in zip(quads, twiddles, u.tolist(), v.tolist()):
        assert x2 < top and y2 < top, (p, x, y, t, x2, y2)
        if forward:
            assert (x2 - x - y) % p == 0 and (y2 - (x - y) * t) % p == 0, (p, x, y, t)
        else:
            assert (x2 - x - y * t) % p == 0 and (y2 - x + y * t) % p == 0, (p, x, y, t)
