"""assume_reduced=True on ntt / intt / NTTPlan.forward / NTTPlan.inverse / polymul: the
same results as the checked calls on input in [0, p), never an error or a crash on input
outside it, and a bool only (docs/guide.md, "Security and constant time")."""
import numpy as np
import pytest

import ntt_cy

CASES = [(8380417, 256), (12289, 512), (3329, 128)]


@pytest.mark.parametrize("q,n", CASES)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
@pytest.mark.parametrize("lanes", [np.uint32, np.uint64, np.int64])
def test_transforms_match_the_checked_calls(q, n, kind, lanes):
    rng = np.random.default_rng(q + n)
    a = rng.integers(0, q, n).astype(lanes)
    rows = rng.integers(0, q, (3, n)).astype(lanes)
    for fn in (ntt_cy.ntt, ntt_cy.intt):
        np.testing.assert_array_equal(fn(a, q, kind=kind, assume_reduced=True),
                                      fn(a, q, kind=kind))
        np.testing.assert_array_equal(fn(rows, q, kind=kind, assume_reduced=True),
                                      fn(rows, q, kind=kind))
    for dt in (np.uint32, np.uint64):
        for family in ("montgomery", "barrett", "lazy"):
            plan = ntt_cy.NTTPlan(n, q, kind=kind, dtype=dt, reduction=family)
            for order in (False, True):
                for x in (a, rows):
                    for method in (plan.forward, plan.inverse):
                        np.testing.assert_array_equal(
                            method(x, bit_reversed=order, assume_reduced=True),
                            method(x, bit_reversed=order))
            out = np.empty(rows.shape, dt)
            assert plan.forward(rows, out=out, assume_reduced=True) is out
            np.testing.assert_array_equal(out, plan.forward(rows))


@pytest.mark.parametrize("q,n", CASES + [(3329, 256), (998244353, 16)])
@pytest.mark.parametrize("kind", ["linear", "cyclic", "negacyclic"])
@pytest.mark.parametrize("lanes", [np.uint32, np.uint64])
def test_polymul_matches_the_checked_call(q, n, kind, lanes):
    rng = np.random.default_rng(q * 3 + n)
    a = rng.integers(0, q, n).astype(lanes)
    b = rng.integers(0, q, n).astype(lanes)
    for x, y in ((a, b), (a, a), (a[None].repeat(2, 0), b)):
        np.testing.assert_array_equal(
            ntt_cy.polymul(x, y, q, kind=kind, assume_reduced=True),
            ntt_cy.polymul(x, y, q, kind=kind))


def test_values_outside_give_a_result_not_an_error():
    q, n = 12289, 512
    a = np.full(n, 2**32 - 1, np.uint32)   # every value >= q
    with pytest.raises(ValueError, match="outside"):
        ntt_cy.ntt(a, q, kind="negacyclic")
    for call in (lambda: ntt_cy.ntt(a, q, kind="negacyclic", assume_reduced=True),
                 lambda: ntt_cy.intt(a, q, assume_reduced=True),
                 lambda: ntt_cy.NTTPlan(n, q).forward(a, bit_reversed=True, assume_reduced=True),
                 lambda: ntt_cy.NTTPlan(n, q).forward(a[None].repeat(3, 0), assume_reduced=True),
                 lambda: ntt_cy.polymul(a, a, q, kind="negacyclic", assume_reduced=True)):
        result = call()
        assert result.shape[-1] == n


@pytest.mark.parametrize("flag", ["yes", 1, None, 0.0])
def test_assume_reduced_is_a_bool(flag):
    a = np.arange(8, dtype=np.uint32)
    calls = [lambda: ntt_cy.ntt(a, 17, assume_reduced=flag),
             lambda: ntt_cy.intt(a, 17, assume_reduced=flag),
             lambda: ntt_cy.NTTPlan(8, 17).forward(a, assume_reduced=flag),
             lambda: ntt_cy.NTTPlan(8, 17).inverse(a, assume_reduced=flag),
             lambda: ntt_cy.polymul(a, a, 17, assume_reduced=flag)]
    for call in calls:
        with pytest.raises(TypeError, match="assume_reduced must be a bool"):
            call()
    np.testing.assert_array_equal(ntt_cy.ntt(a, 17, assume_reduced=np.True_), ntt_cy.ntt(a, 17))
