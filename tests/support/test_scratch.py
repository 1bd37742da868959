"""Per-thread scratch buffers (ntt_cy._support.scratch) and the products that use them."""
import threading

import numpy as np

from ntt_cy._support import scratch as _scratch
from ntt_cy.poly import polymul
import flint  # test dependency: the independent oracle


def fmpz_poly_mod(a, b, m):
    c = flint.fmpz_poly([int(v) for v in a]) * flint.fmpz_poly([int(v) for v in b])
    coeffs = [int(v) % m for v in c.coeffs()]
    return coeffs + [0] * (len(a) + len(b) - 1 - len(coeffs))


def test_slot_is_reused_and_slots_are_disjoint():
    a = _scratch.scratch("t-a", (3, 100), np.uint32)
    b = _scratch.scratch("t-b", (3, 100), np.uint32)
    assert a.shape == (3, 100) and a.dtype == np.uint32 and a.flags.c_contiguous
    assert not np.shares_memory(a, b)
    again = _scratch.scratch("t-a", (50,), np.uint64)   # smaller: same memory
    assert np.shares_memory(a, again)


def test_a_repeated_request_gets_the_same_view():
    a = _scratch.scratch("t-view", (2, 64), np.uint32)
    assert _scratch.scratch("t-view", (2, 64), np.uint32) is a
    b = _scratch.scratch("t-view", (64,), np.uint64)        # another shape: a new view
    assert b.shape == (64,) and b.dtype == np.uint64 and np.shares_memory(a, b)
    big = _scratch.scratch("t-view", (4096,), np.uint64)    # outgrows the buffer
    assert big.shape == (4096,) and not np.shares_memory(big, a)
    again = _scratch.scratch("t-view", (2, 64), np.uint32)
    assert again is not a and np.shares_memory(again, big) and again.shape == (2, 64)


def test_above_limit_is_fresh():
    n = _scratch.LIMIT_BYTES // 4 + 1
    x = _scratch.scratch("t-big", (n,), np.uint32)
    y = _scratch.scratch("t-big", (n,), np.uint32)
    assert x.shape == (n,) and not np.shares_memory(x, y)


def test_threads_get_their_own_buffers():
    seen = {}

    def grab(name):
        seen[name] = _scratch.scratch("t-thread", (1000,), np.uint64)

    threads = [threading.Thread(target=grab, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    grab("main")
    assert not np.shares_memory(seen[0], seen[1])
    assert not np.shares_memory(seen[0], seen["main"])


def test_results_outlive_the_next_call():
    # direct prime, CRT (32-bit and 64-bit primes): a result must not be a scratch view
    rng = np.random.default_rng(5)
    for m in (998244353, 10**9 + 7, 2**64 - 1):
        a, b = (rng.integers(0, min(m, 2**63), 5000, dtype=np.uint64) for _ in range(2))
        first = polymul(a, b, m)
        kept = first.copy()
        polymul(b, a[::-1].copy(), m)
        assert np.array_equal(first, kept)
        assert not np.shares_memory(first, a) and not np.shares_memory(first, b)


def test_in_range_inputs_are_views_not_copies_but_never_written():
    rng = np.random.default_rng(6)
    a = rng.integers(0, 998244353, 4000)   # int64, in range: read through a view
    b = rng.integers(0, 998244353, 4000)
    a.flags.writeable = False
    out = polymul(a, b, 998244353)
    assert [int(v) for v in out] == fmpz_poly_mod(a, b, 998244353)


def test_concurrent_products_from_python_threads():
    rng = np.random.default_rng(7)
    m = 10**9 + 7
    cases = [(rng.integers(0, m, 3000), rng.integers(0, m, 2500)) for _ in range(4)]
    expected = [fmpz_poly_mod(a, b, m) for a, b in cases]
    results = [None] * len(cases)

    def work(k):
        for _ in range(5):
            results[k] = [int(v) for v in polymul(*cases[k], m, workers=1)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


def test_transform_inputs_converted_through_scratch():
    # int64 / uint64 inputs of a uint32 plan are converted in a scratch buffer; the
    # result must match the lane-typed input, on any axis, and outlive the next call
    import ntt_cy

    p = 998244353
    rng = np.random.default_rng(8)
    for shape, axis in (((4096,), -1), ((3, 1024), -1), ((1024, 3), 0)):
        lanes = rng.integers(0, p, shape, dtype=np.uint64).astype(np.uint32)
        expected = ntt_cy.ntt(lanes, p, axis=axis)
        for dt in (np.int64, np.uint64, np.int32):
            first = ntt_cy.ntt(lanes.astype(dt), p, axis=axis)
            kept = first.copy()
            ntt_cy.ntt(lanes[..., ::-1].astype(dt), p, axis=axis)
            assert np.array_equal(first, expected) and np.array_equal(first, kept)
            assert np.array_equal(ntt_cy.intt(first.astype(dt), p, axis=axis), lanes)
    big = rng.integers(0, p, _scratch.LIMIT_BYTES // 4 * 2)   # above the limit: fresh buffer
    assert np.array_equal(ntt_cy.intt(ntt_cy.ntt(big, p), p), big.astype(np.uint32))
