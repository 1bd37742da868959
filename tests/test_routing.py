"""The cost model and route choice (ntt_cy/_routing.py): CRT bases by cost, the measured
transform costs, and the routes' contract with the product paths (ntt_cy/_products.py)."""
import math

import numpy as np
import pytest

import ntt_cy
from ntt_cy import _routing
from ntt_cy._products import run_route
from ntt_cy._routing import choose_basis, product_route
from ntt_cy._single_row import clear_route_caches
from ntt_cy.primes import two_adicity


@pytest.mark.parametrize("bound", [1, 2**29, 2**30, 2**61, 2**62, 2**77, 2**90, 2**124,
                                   2**145, 2**300, 2**900])
@pytest.mark.parametrize("log2n", [1, 17, 21, 26])
def test_choose_basis_fewest_primes(bound, log2n):
    basis = choose_basis(bound, log2n)
    assert basis.product > bound
    # fewest: without its last (smallest) prime the product no longer suffices
    assert math.prod(basis.primes[:-1]) <= bound
    for p in basis.primes:
        assert two_adicity(p) >= log2n
    lane_bits = 30 if basis.dtype == np.uint32 else 62
    assert all(p < 2**lane_bits for p in basis.primes)


def test_choose_basis_prefers_cheapest_family():
    # one 30-bit prime suffices: uint32 lanes whatever the costs
    assert choose_basis(2**20, 10, u64_cost=1.0).dtype == np.uint32
    # n (m-1)^2 for m = 10^9+7, n = 2^17 (77 bits): three 30-bit primes or two 62-bit ones
    bound = 2**17 * (10**9 + 6) ** 2
    slow64 = choose_basis(bound, 18, u64_cost=4.5)    # AVX-512 build: uint64 ~4.5x slower
    assert slow64.dtype == np.uint32 and slow64.k == 3
    fast64 = choose_basis(bound, 18, u64_cost=1.2)    # portable build
    assert fast64.dtype == np.uint64 and fast64.k == 2
    # ties go to uint32
    assert choose_basis(bound, 18, u64_cost=1.5).dtype == np.uint32


def test_transform_costs_are_measured():
    ns, ratio = _routing.transform_costs()
    assert 0 < ns < 100 and 0.5 <= ratio <= 8.0
    assert _routing.lane_costs() == {np.dtype(np.uint32): 1.0, np.dtype(np.uint64): ratio}


def test_choose_basis_too_large():
    with pytest.raises(ValueError, match="too large"):
        choose_basis(2**1000, 10)


# (len a, len b, m): the schoolbook, a direct prime in one call and not (a long row against
# a short one), the one-call CRT product (uint32 and 128-bit reconstruction) and CRT on
# other routes
ROUTE_CASES = [(5, 5, 998244353), (64, 64, 998244353), (1000, 1000, 998244353),
               (3000, 40, 998244353), (1000, 1000, 10**9 + 7), (1000, 1000, 2**32),
               (2000, 2000, 2**64 - 59), (3000, 40, 10**9 + 7), (3000, 40, 2**61 - 1)]


@pytest.mark.parametrize("na,nb,m", ROUTE_CASES)
def test_unchecked_routes_report_values_at_or_above_m(na, nb, m):
    # route.unchecked: the route's kernels take unsigned views unchecked and report a
    # value >= m (run_route returns None); the checked route takes residues.  Other
    # routes refuse unchecked rows outright.
    route = product_route(1, na, nb, m, "linear")
    rng = np.random.default_rng(na + nb)
    a = rng.integers(0, min(m, 2**63), (1, na), dtype=np.uint64)
    b = rng.integers(0, min(m, 2**63), (1, nb), dtype=np.uint64)
    want = run_route(route, a, b, m, 1)
    a_int = [int(v) for v in a[0]]
    b_int = [int(v) for v in b[0]]
    exact = [0] * (na + nb - 1)
    for i, x in enumerate(a_int):
        for j, y in enumerate(b_int):
            exact[i + j] += x * y
    assert [int(v) for v in want[0]] == [v % m for v in exact]
    if not route.unchecked:
        with pytest.raises(AssertionError, match="unchecked"):
            run_route(route, a, b, m, 1, checked=False)
        return
    assert np.array_equal(run_route(route, a, b, m, 1, checked=False), want)
    for i in (0, na // 2, na - 1):
        above = a.copy()
        above[0, i] = m
        assert run_route(route, above, b, m, 1, checked=False) is None, i
    assert run_route(route, a, a, m, 1, checked=False) is not None   # (squares)


@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
@pytest.mark.parametrize("n,p", [(1024, 998244353), (4096, 998244353), (8192, 998244353),
                                 (1024, 1337006139375617)])
def test_wrapped_transform_routes_read_their_rows_unchecked(kind, n, p):
    # the forward transforms read full-length rows of the lanes' dtype themselves and
    # report their largest value: a value >= p gives None (the caller then checks the
    # rows); rows of another dtype are not read so, and give None as well
    route = product_route(1, n, n, p, kind)
    assert route.path == "direct" and route.kind == kind and route.unchecked
    dt = np.uint32 if p < 2**32 else np.uint64
    rng = np.random.default_rng(n)
    a = rng.integers(0, p, (1, n), dtype=np.uint64).astype(dt)
    b = rng.integers(0, p, (1, n), dtype=np.uint64).astype(dt)
    a[0, -1] = p - 1
    want = run_route(route, a, b, p, 1)
    sign = -1 if kind == "negacyclic" else 1
    exact = [0] * n
    if n <= 1024:
        for i, x in enumerate(int(v) for v in a[0]):
            for j, y in enumerate(int(v) for v in b[0]):
                exact[(i + j) % n] += x * y * (sign if i + j >= n else 1)
        assert [int(v) for v in want[0]] == [v % p for v in exact]
    assert np.array_equal(run_route(route, a, b, p, 1, checked=False), want)
    assert np.array_equal(run_route(route, a, a, p, 1, checked=False),
                          run_route(route, a, a, p, 1))   # (squares)
    for i in (0, n // 2, n - 1):
        above = b.copy()
        above[0, i] = p
        assert run_route(route, a, above, p, 1, checked=False) is None, i
    other = np.uint64 if dt == np.uint32 else np.uint32
    if p < 2**32:
        assert run_route(route, a.astype(other), b, p, 1, checked=False) is None
    # the public call takes either path and gives the same product
    got = ntt_cy.polymul(a[0], b[0], p, kind=kind)
    assert np.array_equal(got, want[0])
    assert np.array_equal(ntt_cy.polymul(a[0].astype(np.int64) - p, b[0], p, kind=kind), want[0])


def test_routes_by_kind_and_modulus(monkeypatch):
    # the schoolbook's crossover depends on the measured kernel cost: pinned at the vector
    # builds' (a sanitizer build or a slow host would move 2048 x 2048 to the schoolbook)
    monkeypatch.setattr(_routing, "transform_costs", lambda: (0.18, 4.5))
    clear_route_caches()
    try:
        check_routes_by_kind_and_modulus()
    finally:
        clear_route_caches()


def check_routes_by_kind_and_modulus():
    assert product_route(1, 8, 8, 1, "negacyclic").path == "zero"
    assert product_route(4, 2048, 2048, 998244353, "linear").path == "direct"
    wrapped = product_route(4, 2048, 2048, 998244353, "negacyclic")
    assert (wrapped.path, wrapped.length, wrapped.kind, wrapped.fold) == \
        ("direct", 2048, "negacyclic", None)
    crt = product_route(4, 2048, 2048, 10**9 + 7, "negacyclic")
    assert crt.path == "crt" and crt.length == 2048 and crt.offset == 2048 * (10**9 + 6) ** 2
    folded = product_route(4, 1000, 1000, 998244353, "cyclic")   # not a power of two
    assert folded.fold == "cyclic" and folded.kind == "linear" and not folded.unchecked
    assert product_route(1, 4, 4, 2**64 + 13, "linear").path == "python_schoolbook"
    assert product_route(1, 2000, 2000, 2**127 - 1, "linear").path == "crt32_words"
    with pytest.raises(ValueError, match="too large"):
        product_route(1, 3000, 3000, 2**1100 + 1, "linear")
