"""The uint64 vector arithmetic of ntt_cy/_kernels/simd/ntt64/vector.h against exact
integers at the edges of its stated ranges: the Goldilocks reduction of a 128-bit value
(its borrow, its carry and its final r >= p, which random transform data reaches about
once in 2^32 products) and the residue sums and differences (p < 2^63 by one fold or
minimum, p >= 2^63 by a compare).

A small C shim is compiled against the header with each vector build's flags (setup.py's
ISA_FLAGS: AVX-512 with and without IFMA, AVX2, and the emulated AVX-512 model) and run
for every build this CPU can execute.
"""
import ctypes
import random

import numpy as np
import pytest

from kernel_shims import compile_shim, compiler, load_setup
from ntt_cy._support.cpu import cpu_features
from ntt_cy._support.isa import REQUIRES
from ntt_oracle import PRIME_BELOW_2_62, PRIME_BELOW_2_63

GOLDILOCKS = 2**64 - 2**32 + 1
E = 2**32 - 1   # 2^64 mod p

SHIM = r"""
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt64/dispatch.h"

static vec_u64_mod modulus(uint64_t p, int family) {
    ntt64_params prm = {0};
    prm.p = p;
    prm.family = family;
    return vec_u64_modulus(&prm, family);
}

/* out[i] = (hi[i] 2^64 + lo[i]) mod p, p = 2^64 - 2^32 + 1 */
void shim_gl_reduce(const uint64_t *hi, const uint64_t *lo, uint64_t *out, size_t n) {
    vec_u64_mod m = modulus(NTT_GOLDILOCKS_P, NTT_GOLDILOCKS);
    for (size_t i = 0; i < n; i += VEC_U64_LANES)
        vec_store(out + i, vec_u64_goldilocks_reduce(vec_load(hi + i), vec_load(lo + i), &m));
}

/* out[i] = a[i] w[i] mod p, p = 2^64 - 2^32 + 1 */
void shim_gl_mul(const uint64_t *a, const uint64_t *w, uint64_t *out, size_t n) {
    vec_u64_mod m = modulus(NTT_GOLDILOCKS_P, NTT_GOLDILOCKS);
    for (size_t i = 0; i < n; i += VEC_U64_LANES)
        vec_store(out + i, vec_u64_goldilocks(vec_load(a + i), vec_load(w + i), &m));
}

/* s[i] = a[i] + b[i], d[i] = a[i] - b[i] mod p (vec_u64_add, vec_u64_sub); family a
 * literal per call, as the kernels pass it */
#define SHIM_ADD_SUB(name, family)                                                      \
    void name(uint64_t p, const uint64_t *a, const uint64_t *b, uint64_t *s, uint64_t *d, \
              size_t n) {                                                               \
        vec_u64_mod m = modulus(p, family);                                             \
        for (size_t i = 0; i < n; i += VEC_U64_LANES) {                                 \
            vec_t x = vec_load(a + i), y = vec_load(b + i);                             \
            vec_store(s + i, vec_u64_add(x, y, &m));                                    \
            vec_store(d + i, vec_u64_sub(x, y, &m));                                    \
        }                                                                               \
    }
SHIM_ADD_SUB(shim_add_sub_montgomery64, NTT_MONTGOMERY64)
SHIM_ADD_SUB(shim_add_sub_montgomery52, NTT_MONTGOMERY52)
SHIM_ADD_SUB(shim_add_sub_goldilocks, NTT_GOLDILOCKS)
"""

BUILDS = ["avx512", "avx512_noifma", "avx2", "avx512_emulated"]


def runnable(build):
    return REQUIRES[build] <= set(cpu_features())


@pytest.fixture(scope="module", params=[b for b in BUILDS if runnable(b)])
def shim(request, tmp_path_factory):
    assert compiler(), "no C compiler on PATH: the shim is compiled from source"
    flags = load_setup().ISA_FLAGS[f"_kernels.build_{request.param}"]
    return ctypes.CDLL(str(compile_shim(SHIM, flags,
                                        tmp_path_factory.mktemp(f"simd64_{request.param}"))))


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _lanes(values):
    """uint64 array of `values`, padded with zeros to whole vectors (of 8 lanes)."""
    values = list(values)
    values += [0] * (-len(values) % 8)
    return np.array(values, dtype=np.uint64)


def _edges(p):
    return sorted({0, 1, 2, p // 2, p // 2 + 1, p - 2, p - 1})


def test_goldilocks_reduction_every_branch(shim):
    rng = random.Random(1)
    top = 2**64 - 1
    pairs = [(0, lo) for lo in (0, 1, GOLDILOCKS - 1, GOLDILOCKS, GOLDILOCKS + 1, top - 1, top)]
    # r >= p from below: lo + hl E just above p, no carry, no borrow
    pairs += [(hl, GOLDILOCKS + k - hl * E) for hl in (0, 1, 2**31)
              for k in (0, 1, E - 1) if 0 <= GOLDILOCKS + k - hl * E <= top]
    # borrow (lo < hh): hi's high half above lo
    pairs += [(hh << 32 | hl, lo) for hh in (1, 2**31, 2**32 - 1) for hl in (0, 1, 2**32 - 1)
              for lo in (0, hh - 1)]
    # carry (lo - hh + hl E >= 2^64 before the wrap)
    pairs += [(hl, top - k) for hl in (1, 2**32 - 1) for k in (0, 1, hl * E - 1)]
    pairs += [(top, top), (top, 0), (2**63, 2**63)]
    pairs += [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(4000)]
    hi, lo = _lanes(h for h, _ in pairs), _lanes(v for _, v in pairs)
    out = np.zeros_like(hi)
    shim.shim_gl_reduce(_ptr(hi), _ptr(lo), _ptr(out), ctypes.c_size_t(len(hi)))
    for h, v, r in zip(hi.tolist(), lo.tolist(), out.tolist()):
        assert r == (h << 64 | v) % GOLDILOCKS, (h, v, r)


def test_goldilocks_product_reaches_r_at_least_p(shim):
    # a w < 2^64 with a w >= p: the reduction's last step alone decides (a in
    # [2^63 - 2^31 + 1, 2^63), w = 2), then edges and random canonical operands
    rng = random.Random(2)
    pairs = [(2**63 - k, 2) for k in (1, 2, 2**31 - 1)]
    pairs += [(a, w) for a in _edges(GOLDILOCKS) for w in _edges(GOLDILOCKS)]
    pairs += [(rng.randrange(GOLDILOCKS), rng.randrange(GOLDILOCKS)) for _ in range(4000)]
    a, w = _lanes(x for x, _ in pairs), _lanes(y for _, y in pairs)
    out = np.zeros_like(a)
    shim.shim_gl_mul(_ptr(a), _ptr(w), _ptr(out), ctypes.c_size_t(len(a)))
    for x, y, r in zip(a.tolist(), w.tolist(), out.tolist()):
        assert r == x * y % GOLDILOCKS, (x, y, r)


@pytest.mark.parametrize("family,p", [
    ("montgomery64", 3), ("montgomery64", PRIME_BELOW_2_62), ("montgomery64", PRIME_BELOW_2_63),
    ("montgomery64", GOLDILOCKS), ("montgomery64", 2**64 - 59),
    ("montgomery52", 1337006139375617), ("montgomery52", 2**52 - 47),
    ("goldilocks", GOLDILOCKS)])
def test_residue_sums_and_differences(shim, family, p):
    # a, b in [0, p): one fold (p < 2^63) or a compare (p >= 2^63) each way
    rng = random.Random(p)
    pairs = [(x, y) for x in _edges(p) for y in _edges(p)]
    pairs += [(rng.randrange(p), rng.randrange(p)) for _ in range(2000)]
    a, b = _lanes(x for x, _ in pairs), _lanes(y for _, y in pairs)
    s, d = np.zeros_like(a), np.zeros_like(a)
    getattr(shim, f"shim_add_sub_{family}")(ctypes.c_uint64(p), _ptr(a), _ptr(b), _ptr(s),
                                             _ptr(d), ctypes.c_size_t(len(a)))
    for x, y, gs, gd in zip(a.tolist(), b.tolist(), s.tolist(), d.tolist()):
        assert gs == (x + y) % p and gd == (x - y) % p, (x, y, gs, gd)
