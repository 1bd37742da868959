"""bigmul == x * y (CPython's product, or python-flint's fmpz for huge operands)."""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ntt_cy
import ntt_cy.bigint as bigint
from ntt_cy import _routing
from ntt_cy._crt import U32, U64
from ntt_cy.bigint import bigmul, ntt_multiply

import flint  # test dependency (pip install -e ".[test]"): the independent oracle


@pytest.fixture
def always_ntt(monkeypatch):
    """Route every product through the NTT, however small."""
    monkeypatch.setattr(_routing, "BIGMUL_MIN_BITS", 0)
    monkeypatch.setattr(_routing, "PER_PRIME_MIN_BITS", 0)


def test_export():
    assert ntt_cy.bigmul is bigmul


SPECIAL = [0, 1, -1, 2, -2, 3, 2**47, 2**48 - 1, 2**48, 2**48 + 1, 2**64 - 1, -(2**96),
           2**100_000, -(2**100_000) + 1, 2**200_001 - 1, 3**100_000]


def _id(v):
    return f"{'-' if v < 0 else ''}{abs(v).bit_length()}bits"


@pytest.mark.parametrize("x", SPECIAL, ids=_id)
@pytest.mark.parametrize("y", SPECIAL[::3] + [7**50_000], ids=_id)
def test_signs_zeros_powers_of_two(x, y, always_ntt):
    assert bigmul(x, y) == x * y
    assert bigmul(-x, y) == -x * y
    assert bigmul(y, x) == x * y


def test_squares(always_ntt):
    x = random.Random(1).getrandbits(300_000)
    assert bigmul(x, x) == x * x
    assert bigmul(x, -x) == -x * x
    assert bigmul(-x, -x) == x * x


@pytest.mark.parametrize("bits", [10, 1000, 15_000, 40_000, 100_000, 1_000_003])
def test_random_sizes_default_path(bits):
    rng = random.Random(bits)
    x, y = rng.getrandbits(bits) | 1, -rng.getrandbits(bits + 17)
    assert bigmul(x, y) == x * y


def test_unbalanced(always_ntt):
    rng = random.Random(5)
    x, y = rng.getrandbits(500_000), rng.getrandbits(70)
    assert bigmul(x, y) == x * y
    assert bigmul(y, x) == x * y


def test_ten_million_bits():
    rng = random.Random(10**7)
    x = rng.getrandbits(10**7) | 1 << (10**7 - 1)
    y = -(rng.getrandbits(10**7 - 12345) | 1)
    expected = int(flint.fmpz(x) * flint.fmpz(y))
    assert bigmul(x, y) == expected


def test_ntt_multiply_limit_returns_none(monkeypatch):
    # Operands no scheme can take are handed back (bigmul then uses CPython).
    monkeypatch.setattr(_routing, "bigmul_scheme", lambda *a: None)
    assert ntt_multiply(3**1000, 5**1000) is None
    monkeypatch.setattr(_routing, "BIGMUL_MIN_BITS", 0)
    monkeypatch.setattr(_routing, "PER_PRIME_MIN_BITS", 0)
    assert bigmul(3**1000, 5**1000) == 3**1000 * 5**1000


@pytest.mark.parametrize("u64_cost", [0.6, 1.2, 4.5, 8.0])
@pytest.mark.parametrize("bits", [64, 16_000, 10**6, 10**7, 10**8, 2 * 10**9])
def test_choose_scheme_is_exact(monkeypatch, u64_cost, bits):
    monkeypatch.setattr(_routing, "lane_costs", lambda: {U32: 1.0, U64: u64_cost})
    w, basis = _routing.bigmul_scheme(bits, bits // 3 + 1)
    la, lb = -(-bits // (8 * w)), -(-(bits // 3 + 1) // (8 * w))
    assert basis.product > min(la, lb) * (2 ** (8 * w) - 1) ** 2
    assert basis.product < 2**127
    for p in basis.primes:
        assert (p - 1) % (1 << (la + lb - 2).bit_length()) == 0
    if u64_cost >= 4.5 and bits <= 10**8:   # beyond, 30-bit primes lack the 2-adicity
        assert basis.dtype == np.uint32


@pytest.mark.parametrize("w", _routing.LIMB_CHOICES)
@pytest.mark.parametrize("u64_cost", [0.6, 8.0])
def test_every_limb_width_and_family(monkeypatch, w, u64_cost):
    monkeypatch.setattr(_routing, "LIMB_CHOICES", (w,))
    monkeypatch.setattr(_routing, "lane_costs", lambda: {U32: 1.0, U64: u64_cost})
    rng = random.Random(w)
    for bx, by in [(1, 1), (8 * w, 8 * w + 1), (50_000, 50_000), (300_000, 1_000)]:
        x, y = rng.getrandbits(bx) | 1 << (bx - 1), rng.getrandbits(by)
        scheme = _routing.bigmul_scheme(bx, by)
        assert scheme[0] == w
        assert scheme[1].dtype == (np.uint32 if u64_cost == 8.0 else np.uint64)
        assert ntt_multiply(x, y, 1) == x * y
    big = 2 ** (8 * w * 1000) - 1    # all limbs at their maximum: the worst case
    assert ntt_multiply(big, big, 2, square=True) == big * big


@pytest.mark.parametrize("w", _routing.LIMB_CHOICES)
def test_fused_and_per_prime_routes_agree(monkeypatch, w):
    # uint32 primes and operands within padded_product's half take one kernel call
    # (fused_digits); more unequal operands the per-prime route, forced here too
    monkeypatch.setattr(_routing, "LIMB_CHOICES", (w,))
    monkeypatch.setattr(_routing, "lane_costs", lambda: {U32: 1.0, U64: 8.0})
    calls = []
    real = bigint.fused_digits
    monkeypatch.setattr(bigint, "fused_digits", lambda *a: calls.append(1) or real(*a))
    rng = random.Random(w + 100)
    for bx, by, fused in [(20_000, 20_000, True), (40_000, 30_000, True),
                          (300_000, 1_000, False), (8 * w * 1000, 8 * w * 1000, True)]:
        x = rng.getrandbits(bx) | 1 << (bx - 1)
        y = 2**by - 1   # all limbs at their maximum
        calls.clear()
        assert ntt_multiply(x, y, 2) == x * y and ntt_multiply(y, x, 1) == x * y
        assert bool(calls) == fused, (bx, by)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_routing, "fits_padded_half", lambda *a: False)
            calls.clear()
            assert ntt_multiply(x, y, 1) == x * y and not calls


def test_thresholds_pick_cpython_below_them(monkeypatch):
    # below BIGMUL_MIN_BITS always CPython; below PER_PRIME_MIN_BITS CPython unless the
    # product is one kernel call
    monkeypatch.setattr(_routing, "lane_costs", lambda: {U32: 1.0, U64: 8.0})
    calls = []
    real = bigint.ntt_multiply
    monkeypatch.setattr(bigint, "ntt_multiply",
                        lambda *a, **k: calls.append(real(*a, **k)) or calls[-1])
    rng = random.Random(7)
    lo, mid = _routing.BIGMUL_MIN_BITS, _routing.PER_PRIME_MIN_BITS
    for bx, by, route in [(lo - 1, lo - 1, None), (lo, lo, "ntt"), (mid - 1, mid - 1, "ntt"),
                          (mid - 1, 40 * mid, "cpython"), (mid, 40 * mid, "ntt")]:
        x, y = rng.getrandbits(bx) | 1 << (bx - 1), rng.getrandbits(by) | 1 << (by - 1)
        calls.clear()
        assert bigmul(x, y) == x * y
        if route is None:
            assert calls == []
        else:
            assert len(calls) == 1 and (calls[0] is None) == (route == "cpython"), (bx, by)


def test_numpy_ints_and_type_errors():
    assert bigmul(np.int64(-5), 7) == -35
    for bad in (1.5, "3", None, True):
        with pytest.raises(TypeError):
            bigmul(bad, 3)
        with pytest.raises(TypeError):
            bigmul(3, bad)


@settings(max_examples=40, deadline=None)
@given(x=st.integers(-(2**20_000), 2**20_000), y=st.integers(-(2**20_000), 2**20_000))
def test_property_small_forced_ntt(x, y):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_routing, "BIGMUL_MIN_BITS", 0)
        mp.setattr(_routing, "PER_PRIME_MIN_BITS", 0)
        assert bigmul(x, y) == x * y


@settings(max_examples=15, deadline=None)
@given(bx=st.integers(1, 400_000), by=st.integers(1, 400_000), seed=st.integers(0, 2**32))
def test_property_random_sizes(bx, by, seed):
    rng = random.Random(seed)
    x, y = rng.getrandbits(bx), rng.getrandbits(by)
    assert bigmul(x, y) == x * y
