"""Reduction primitives at the edges of their stated ranges, against Python ints."""
import numpy as np
import pytest

from ntt_cy._kernels import elementwise as _vecarith
from ntt_cy.plan import modulus_constants
from ntt_oracle import PRIME_BELOW_2_62, PRIME_BELOW_2_63

P32 = [3329, 998244353, 2013265921, 2281701377, 2**32 - 5]
P64 = [998244353, 1337006139375617, PRIME_BELOW_2_62, PRIME_BELOW_2_63,
       2**64 - 2**32 + 1, 2**64 - 59]


def edge_values(limit, p, rng, count=200):
    """Values in [0, limit) concentrated at the edges that break reductions."""
    fixed = [0, 1, 2, p - 2, p - 1, limit - 1, limit - 2, limit // 2, p // 2]
    fixed = [v for v in fixed if 0 <= v < limit]
    rand = [int(x) for x in rng.integers(0, min(limit, 2**63), count)]
    rand += [limit - 1 - int(x) for x in rng.integers(0, min(limit, 2**32), count)]
    return fixed + rand


def cases(lane_bits):
    return [(p, lane_bits) for p in (P32 if lane_bits == 32 else P64)]


# Shoup's stated bound is 2p <= 2^L: larger primes are not Shoup cases at all.
MUL_CASES = [(p, bits, family) for p, bits in cases(32) + cases(64)
             for family in ("montgomery", "barrett", "shoup")
             if family != "shoup" or 2 * p <= 2**bits]


@pytest.mark.parametrize("p,bits,family", MUL_CASES)
def test_mul_mod_matches_python(p, bits, family):
    dt = np.dtype(f"uint{bits}")
    rng = np.random.default_rng(p % 2**32)
    a_vals = edge_values(2**bits, p, rng)          # a may be any lane value
    b_vals = edge_values(p, p, rng)                # b (the constant) must be < p
    a_vals, b_vals = np.array(a_vals, dtype=dt), np.array(b_vals[: len(a_vals)] * 2, dtype=dt)[: len(a_vals)]
    out = np.empty_like(a_vals)
    _vecarith.mul_mod(family, a_vals, b_vals, out, modulus_constants(p, dt))
    r_inv = pow(2**bits, -1, p)
    for a, b, got in zip(a_vals.tolist(), b_vals.tolist(), out.tolist()):
        exact = a * b % p
        if family == "montgomery":
            assert got == exact * r_inv % p, (a, b)
        elif family == "barrett":
            assert got == exact, (a, b)
        else:  # lazy: congruent and in [0, 2p)
            assert got < 2 * p and got % p == exact, (a, b)


P52 = [3, 998244353, 1337006139375617, 2**52 - 47, 4503599626321921]  # odd primes < 2^52


@pytest.mark.parametrize("p", P52)
def test_montgomery52_matches_python(p):
    # The IFMA kernels' radix: a < 2^52, b < p, result a*b*2^-52 mod p in [0, p).
    rng = np.random.default_rng(p % 1000)
    a = np.array(edge_values(2**52, p, rng), dtype=np.uint64)
    b = np.array((edge_values(p, p, rng) * 2)[: len(a)], dtype=np.uint64)
    out = np.empty_like(a)
    _vecarith.mul_mod("montgomery52", a, b, out, modulus_constants(p, np.dtype(np.uint64)))
    r_inv = pow(2**52, -1, p)
    for x, y, got in zip(a.tolist(), b.tolist(), out.tolist()):
        assert got == x * y * r_inv % p, (x, y)


@pytest.mark.parametrize("p,bits", cases(32) + cases(64))
def test_add_sub_mod(p, bits):
    dt = np.dtype(f"uint{bits}")
    rng = np.random.default_rng(7)
    a = np.array(edge_values(p, p, rng), dtype=dt)
    b = a[::-1].copy()
    s, d = np.empty_like(a), np.empty_like(a)
    _vecarith.add_sub_mod(a, b, s, d, p)
    for x, y, gs, gd in zip(a.tolist(), b.tolist(), s.tolist(), d.tolist()):
        assert gs == (x + y) % p and gd == (x - y) % p
