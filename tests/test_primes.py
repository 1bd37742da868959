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
    2**64 - 59 - 2,
])
def test_strong_pseudoprimes_are_composite(n):
    assert not is_prime(n)


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
