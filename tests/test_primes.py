import numpy as np
import pytest

from ntt_cy.primes import (factorize, is_prime, ntt_primes, primitive_root, root_of_unity,
                           two_adicity)
from ntt_oracle import REFERENCE_PRIMES


def naive_is_prime(n):
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def test_is_prime_matches_trial_division():
    assert [n for n in range(3000) if is_prime(n)] == [n for n in range(3000) if naive_is_prime(n)]


@pytest.mark.parametrize("n", [
    3215031751,               # strong pseudoprime to bases 2, 3, 5, 7
    3825123056546413051,      # strong pseudoprime to bases 2..23 (below 2^64)
    318665857834031151167461,  # strong pseudoprime to bases 2..37 (above 2^64)
    3317044064679887385961981,  # strong pseudoprime to bases 2..41: the Lucas test's case
    2**64 - 59 - 2,
])
def test_strong_pseudoprimes_are_composite(n):
    assert not is_prime(n)


def test_strong_lucas_pseudoprimes_below_1e5():
    # The composites that pass the strong Lucas test alone (Selfridge's parameters) are
    # a known sequence (OEIS A217255); every prime passes.
    from ntt_cy.primes import SMALL_PRIMES, strong_lucas_probable_prime

    odd = [n for n in range(49, 100_000, 2) if all(n % q for q in SMALL_PRIMES)]
    passed = [n for n in odd if strong_lucas_probable_prime(n)]
    assert [n for n in passed if not naive_is_prime(n)] == [
        5459, 5777, 10877, 16109, 18971, 22499, 24569, 25199, 40309, 58519, 75077, 97439]
    assert [n for n in odd if naive_is_prime(n)] == [n for n in passed if naive_is_prime(n)]


def test_large_integers_against_flint():
    import random

    import flint

    rng = random.Random(5)
    known = [2**127 - 1, 2**521 - 1, (2**89 - 1) * (2**61 - 1), (2**127 - 1) ** 2,
             (2**64 - 59) * (2**64 - 83) * (2**63 - 25)]
    cases = known + [rng.getrandbits(bits) | 1 for bits in (82, 100, 160, 256) for _ in range(300)]
    cases += [n for n in (rng.getrandbits(120) | 1 for _ in range(20000))
              if flint.fmpz(n).is_prime()][:60]
    for n in map(int, cases):
        assert is_prime(n) == bool(flint.fmpz(n).is_prime()), n


def test_largest_primes_below_powers_of_two():
    assert is_prime(2**64 - 59) and is_prime(2**63 - 25) and is_prime(2**61 - 1)
    assert not any(is_prime(2**64 - k) for k in range(1, 59))


@pytest.mark.parametrize("p,root", REFERENCE_PRIMES)
def test_reference_table_roots(p, root):
    assert is_prime(p)
    assert primitive_root(p) == root
    for q in factorize(p - 1):
        assert pow(root, (p - 1) // q, p) != 1


@pytest.mark.parametrize("n", [1, 2, 12, 2**64 - 1, 18446744069414584320, 1337006139375616])
def test_factorize_multiplies_back(n):
    f = factorize(n)
    prod = 1
    for q, e in f.items():
        assert is_prime(q)
        prod *= q**e
    assert prod == n


def test_two_adicity():
    assert two_adicity(998244353) == 23
    assert two_adicity(2**64 - 2**32 + 1) == 32
    assert two_adicity(3) == 1


def test_root_of_unity_has_exact_order():
    p = 998244353
    for k in range(0, 24):
        w = root_of_unity(2**k, p)
        assert pow(w, 2**k, p) == 1
        assert k == 0 or pow(w, 2 ** (k - 1), p) == p - 1


def test_user_root_is_checked():
    p = 7340033
    w = root_of_unity(16, p)
    assert root_of_unity(16, p, root=w) == w
    with pytest.raises(ValueError, match="not a primitive 16-th root"):
        root_of_unity(16, p, root=w * w % p)
    with pytest.raises(ValueError, match="does not divide"):
        root_of_unity(3, p)


def test_ntt_primes():
    ps = ntt_primes(31, 24, 3)
    assert len(set(ps)) == 3
    for p in ps:
        assert is_prime(p) and p < 2**31 and (p - 1) % 2**24 == 0


def test_cached_functions_check_types_before_the_cache():
    # 12.0 == 12 and hashes alike: a cache hit once answered for a float
    from ntt_cy.primes import factorize, primitive_root

    assert factorize(np.int64(12)) == {2: 2, 3: 1}
    assert primitive_root(np.int64(7)) == 3
    for bad in (12.0, True, "12"):
        with pytest.raises(TypeError):
            factorize(bad)
    for bad in (7.0, True):
        with pytest.raises(TypeError):
            primitive_root(bad)
    result = factorize(12)
    result[5] = 1   # a copy: the cache keeps its own
    assert factorize(12) == {2: 2, 3: 1}


def test_primes_is_a_public_module():
    import ntt_cy

    assert ntt_cy.primes is __import__("ntt_cy.primes").primes and "primes" in ntt_cy.__all__
    for name in ("is_prime", "factorize", "two_adicity", "primitive_root", "root_of_unity",
                 "ntt_primes"):
        fn = getattr(ntt_cy.primes, name)
        assert name in ntt_cy.primes.__all__ and "Examples" in fn.__doc__, name


def test_ntt_primes_by_length_or_two_adicity():
    by_k = ntt_primes(62, 20, 3)
    assert ntt_primes(62, n=2**20, count=3) == by_k == ntt_primes(62, min_two_adicity=20, count=3)
    assert by_k == sorted(by_k, reverse=True) and len(set(by_k)) == 3
    for p in by_k:
        assert is_prime(p) and p < 2**62 and two_adicity(p) >= 20
    # the largest: nothing between it and 2**bits has the 2-adicity
    top = by_k[0]
    assert not any(is_prime(q) for q in range(top + 2**20, 2**62, 2**20))
    assert ntt_primes(64, n=2**32) == [2**64 - 2**32 + 1]
    assert ntt_primes(10, 8, 5, allow_fewer=True) == [769, 257]   # all of them
    with pytest.raises(ValueError, match="fewer than 5 primes"):
        ntt_primes(10, 8, 5)
    for args, kw, exc in ((( 32,), {}, TypeError), ((32, 4), {"n": 16}, TypeError),
                          ((32,), {"n": 12}, ValueError), ((32, -1), {}, ValueError),
                          ((32, 4, 0), {}, ValueError), ((1.5, 4), {}, TypeError)):
        with pytest.raises(exc):
            ntt_primes(*args, **kw)


def test_root_of_unity_checks_a_given_root():
    p = 998244353
    w = root_of_unity(16, p)
    assert pow(w, 16, p) == 1 and pow(w, 8, p) == p - 1
    assert root_of_unity(16, p, pow(w, 3, p)) == pow(w, 3, p)
    assert root_of_unity(16, p, pow(w, 3, p) + p) == pow(w, 3, p)   # reduced mod p
    with pytest.raises(ValueError, match="not a primitive 16-th root"):
        root_of_unity(16, p, pow(w, 2, p))
    with pytest.raises(ValueError, match="does not divide"):
        root_of_unity(3 * 2**23 * 2, p)
