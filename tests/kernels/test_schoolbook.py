"""The schoolbook kernels (ntt_cy/_kernels/schoolbook.pyx) against Python ints, at the edges of
each accumulation: the one-word sum's length limit, the split sums of 32-bit lanes,
and the 128-bit partial sums of 64-bit lanes (one product each for m > ~2^63.5)."""
import numpy as np
import pytest

from ntt_cy._kernels import schoolbook as _schoolbook
from ntt_cy.plan import modulus_constants


def constants(m):
    c = modulus_constants(m, np.dtype(np.uint64))
    return c["barrett_d"], c["barrett_v"], c["barrett_shift"]


def one_word_limit(m):
    """The longest shorter operand whose products mod m sum in one 64-bit word."""
    return (2**64 - 1) // (m - 1) ** 2


def wide_chunk(m):
    """Products per 128-bit partial sum for 64-bit lanes (ntt_wide_chunk)."""
    return min((2**128 - 1) // (m - 1) ** 2, 2**62)


def exact(a, b, m):
    c = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            c[i + j] += int(x) * int(y)
    return [v % m for v in c]


def lanes(m):
    return np.uint32 if _schoolbook.lane_bytes(m) == 4 else np.uint64


def linear_mod(a_rows, b_rows, m, threads=1):
    dt = lanes(m)
    a = np.ascontiguousarray(a_rows, dtype=dt)
    rb = np.ascontiguousarray(np.asarray(b_rows, dtype=dt)[:, ::-1])
    out = np.empty((a.shape[0], a.shape[1] + rb.shape[1] - 1), dtype=np.uint64)
    _schoolbook.linear_mod(a, rb, out, m, *constants(m), threads)
    return out


@pytest.mark.parametrize("m,shortest,name", [
    (2, 2**40, "one_word"), (65537, one_word_limit(65537), "one_word"),
    (65537, one_word_limit(65537) + 1, "split"),
    (998244353, one_word_limit(998244353), "one_word"),
    (998244353, one_word_limit(998244353) + 1, "split"),
    (2**32, 1, "one_word"), (2**32, 2, "split"), (2**32 + 1, 1, "wide"),
    (2**61 - 1, 5, "wide"), (2**64 - 1, 1, "wide")])
def test_accumulation_classes(m, shortest, name):
    assert _schoolbook.accumulation_name(m, shortest) == name
    assert _schoolbook.lane_bytes(m) == (4 if m <= 2**32 else 8)


# Moduli at each accumulation's edges: small ones (one word at any length here),
# one-word limits of 18 (998244353) and 1 (2^32 - 5, 2^32); 64-bit lanes with
# chunks of 2^62 (2^32 + 15), 64 (2^61 - 1), 4 (2^63 - 25), 3 (2^63 + 29) and 1.
EDGE_MODULI = [2, 3, 65537, 2**31 - 1, 998244353, 10**9 + 7, 2**32 - 5, 2**32, 2**32 + 15,
               2**61 - 1, 2**63 - 25, 2**63 + 29, 2**64 - 59, 2**64 - 1]


def edge_lengths(m):
    """Shorter-operand lengths on both sides of m's one-word limit or chunk size."""
    limit = one_word_limit(m) if m <= 2**32 else wide_chunk(m)
    near = [n for n in (limit - 1, limit, limit + 1, 2 * limit + 1) if 1 <= n <= 150]
    return sorted(set(near + [1, 2, 7, 70]))


@pytest.mark.parametrize("m", EDGE_MODULI)
def test_all_m_minus_one_at_the_edges(m):
    # every product (m - 1)^2, the largest each sum can hold
    for n in edge_lengths(m):
        for other in (n, n + 5):
            a, b = [m - 1] * n, [m - 1] * other
            want = exact(a, b, m)
            assert linear_mod([a], [b], m)[0].tolist() == want, (n, other)
            row = _schoolbook.SingleRowSchoolbook(n, other, m, *constants(m))
            got = row.product(np.array(a, dtype=lanes(m)), np.array(b, dtype=lanes(m)))
            assert got.dtype == lanes(m) and got.tolist() == want, (n, other)


@pytest.mark.parametrize("m", EDGE_MODULI)
def test_random_rows_at_the_edges(m):
    rng = np.random.default_rng(m % 999983)
    for n in edge_lengths(m):
        a = rng.integers(0, m, (3, n), dtype=np.uint64)
        b = rng.integers(0, m, (3, n + 3), dtype=np.uint64)
        b[1] = m - 1     # one row all (m - 1) against random values
        got = linear_mod(a, b, m)
        for r in range(3):
            assert got[r].tolist() == exact(a[r].tolist(), b[r].tolist(), m), (n, r)


@pytest.mark.parametrize("threads", [-1, 0, 2, 3, 5])   # (counts below 1: one thread)
def test_threads_split_rows_anywhere(threads):
    # each thread takes a contiguous run of the R * L coefficients, which may start
    # and end inside a row
    m = 10**9 + 7
    rng = np.random.default_rng(abs(threads))
    a = rng.integers(0, m, (7, 5), dtype=np.uint64)
    b = rng.integers(0, m, (7, 9), dtype=np.uint64)
    assert np.array_equal(linear_mod(a, b, m, threads), linear_mod(a, b, m, 1))
    assert linear_mod(a, b, m, threads)[6].tolist() == exact(a[6].tolist(), b[6].tolist(), m)


def test_lanes_must_match_the_modulus():
    out = np.empty((1, 3), dtype=np.uint64)
    with pytest.raises(ValueError, match="lanes"):
        _schoolbook.linear_mod(np.ones((1, 2), np.uint64), np.ones((1, 2), np.uint64), out,
                               998244353, *constants(998244353), 1)
    with pytest.raises(ValueError, match="lanes"):
        _schoolbook.linear_mod(np.ones((1, 2), np.uint32), np.ones((1, 2), np.uint32), out,
                               2**61 - 1, *constants(2**61 - 1), 1)
    with pytest.raises(ValueError, match="modulus"):
        _schoolbook.accumulation_name(1, 4)
