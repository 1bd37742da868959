"""Primality, factorisation, roots of unity and NTT-friendly primes (``ntt_cy.primes``).

Everything here works on Python ints (numpy integers are accepted as the ints they
hold).  is_prime is exact below 3.3e24 (Miller-Rabin with the first 13 prime bases,
deterministic there) and the Baillie-PSW test above (Miller-Rabin base 2 with a strong
Lucas test: no composite is known to pass it).  Its answers are cached: the same moduli
come back on every call of the library.

    is_prime(n)                     primality
    factorize(n)                    {prime: exponent}
    two_adicity(p)                  the largest k with 2**k | p - 1
    primitive_root(p)               the smallest generator mod a prime p
    root_of_unity(n, p)             a primitive n-th root of unity mod p
    ntt_primes(bits, k, count)      the largest primes below 2**bits with 2**k | p - 1

Examples
--------
>>> from ntt_cy import primes
>>> p = primes.ntt_primes(30, n=2**20)[0]        # a prime for transforms of 2**20 points
>>> p, primes.is_prime(p), primes.two_adicity(p) >= 20
(1053818881, True, True)
>>> w = primes.root_of_unity(2**20, p)
>>> pow(w, 2**20, p), pow(w, 2**19, p) == p - 1
(1, True)
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # (numpy is imported only when a numpy integer is passed)
    from ntt_cy._typing import Integer

__all__ = [
    "is_prime",
    "factorize",
    "two_adicity",
    "primitive_root",
    "root_of_unity",
    "ntt_primes",
]

# Bases that make Miller-Rabin deterministic for every n < _MR_EXACT_BELOW (> 2**64):
# _MR_EXACT_BELOW is the smallest strong pseudoprime to all of them.
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_MR_EXACT_BELOW = 3317044064679887385961981
SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)


def _check_int(n: object, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            import numpy as np

            if isinstance(n, np.integer) and not isinstance(n, np.bool_):
                return int(n)
        except ImportError:  # pragma: no cover
            pass
        raise TypeError(f"{name} must be an integer, got {type(n).__name__}")
    return n


def is_prime(n: Integer) -> bool:
    """Whether ``n`` is prime: exact below 3.3e24, the Baillie-PSW test above.

    Parameters
    ----------
    n : int
        Any integer (numbers below 2 are not prime).

    Returns
    -------
    bool
        True for primes.

    Raises
    ------
    TypeError
        A non-integer `n` (floats and bools too).

    See Also
    --------
    factorize : The prime factors of a composite.

    Examples
    --------
    >>> from ntt_cy.primes import is_prime
    >>> is_prime(998244353), is_prime(2**64 - 59), is_prime(3215031751)
    (True, True, False)
    """
    return _is_prime(_check_int(n))   # (checked before the cache, as factorize)


@lru_cache(maxsize=1024)
def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    for q in SMALL_PRIMES:
        if n % q == 0:
            return n == q
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    if not all(_strong_probable_prime(n, a, d, s) for a in _MR_BASES):
        return False
    return n < _MR_EXACT_BELOW or strong_lucas_probable_prime(n)


def _strong_probable_prime(n: int, a: int, d: int, s: int) -> bool:
    """Miller-Rabin to base a, n odd > a, n - 1 = d 2^s with d odd."""
    x = pow(a, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a / n), n odd and positive."""
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def strong_lucas_probable_prime(n: int) -> bool:
    """The strong Lucas test with Selfridge's parameters (D the first of 5, -7, 9, -11,
    ... with (D / n) = -1, P = 1, Q = (1 - D) / 4), n odd and not divisible by
    SMALL_PRIMES.  Every prime passes; composites that pass are rare and none is
    known to also be a strong pseudoprime to base 2."""
    root = math.isqrt(n)
    if root * root == n:   # a square has no D with (D / n) = -1
        return False
    D = 5
    while True:
        j = _jacobi(D, n)
        if j == -1:
            break
        if j == 0 and abs(D) != n:
            return False
        D = -D - 2 if D > 0 else -D + 2
    P, Q = 1, (1 - D) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    # U_k, V_k, Q^k mod n along the bits of d: k -> 2k, then k -> k + 1 on a one bit.
    half = (n + 1) // 2   # 2^-1 mod n
    U, V, Qk = 1, P, Q % n
    for bit in bin(d)[3:]:
        U, V, Qk = U * V % n, (V * V - 2 * Qk) % n, Qk * Qk % n
        if bit == "1":
            U, V, Qk = (P * U + V) * half % n, (D * U + P * V) * half % n, Qk * Q % n
    if U == 0 or V == 0:
        return True
    for _ in range(s - 1):   # V_{d 2^r} = 0 for some 0 < r < s
        V, Qk = (V * V - 2 * Qk) % n, Qk * Qk % n
        if V == 0:
            return True
    return False


def _pollard_brent(n: int) -> int:
    """Return a non-trivial factor of the composite odd ``n``."""
    for c in range(1, 200):
        y, m, g, r, q = 2, 128, 1, 1, 1
        x = ys = y
        while g == 1:
            x = y
            for _ in range(r):
                y = (y * y + c) % n
            k = 0
            while k < r and g == 1:
                ys = y
                for _ in range(min(m, r - k)):
                    y = (y * y + c) % n
                    q = q * abs(x - y) % n
                g = math.gcd(q, n)
                k += m
            r *= 2
        if g == n:
            g = 1
            while g == 1:
                ys = (ys * ys + c) % n
                g = math.gcd(abs(x - ys), n)
        if g != n:
            return g
    raise ArithmeticError(f"could not factor {n}")  # pragma: no cover


def factorize(n: Integer) -> dict[int, int]:
    """Prime factorisation of ``n >= 1`` as ``{prime: exponent}`` (Pollard-Brent).

    Parameters
    ----------
    n : int
        A positive integer.

    Returns
    -------
    dict of int to int
        Each prime factor (ascending) and its exponent; ``{}`` for 1.

    Raises
    ------
    ValueError
        ``n < 1``.
    TypeError
        A non-integer `n`.

    See Also
    --------
    is_prime : Primality alone.

    Examples
    --------
    >>> from ntt_cy.primes import factorize
    >>> factorize(998244353 - 1)
    {2: 23, 7: 1, 17: 1}
    >>> factorize(2**64 + 1)
    {274177: 1, 67280421310721: 1}
    """
    # (checked before the cache: 12.0 == 12 would find 12's entry)
    return dict(_factorize(_check_int(n)))


@lru_cache(maxsize=1024)
def _factorize(n: int) -> dict[int, int]:
    if n < 1:
        raise ValueError(f"factorize needs n >= 1, got {n}")
    factors: dict[int, int] = {}
    for q in SMALL_PRIMES:
        while n % q == 0:
            factors[q] = factors.get(q, 0) + 1
            n //= q
    stack = [n] if n > 1 else []
    while stack:
        m = stack.pop()
        if is_prime(m):
            factors[m] = factors.get(m, 0) + 1
            continue
        d = _pollard_brent(m)
        stack += [d, m // d]
    return dict(sorted(factors.items()))


def two_adicity(p: Integer) -> int:
    """The largest k with 2**k dividing p - 1.

    For a prime p, 2**k is the longest power-of-two cyclic NTT modulo p (2**(k-1) for
    a negacyclic one).

    Parameters
    ----------
    p : int
        Any integer (usually a prime).

    Returns
    -------
    int
        The 2-adicity k; 0 for p <= 1.

    Raises
    ------
    TypeError
        A non-integer `p`.

    See Also
    --------
    ntt_primes : Primes of a given 2-adicity.

    Examples
    --------
    >>> from ntt_cy.primes import two_adicity
    >>> two_adicity(998244353), two_adicity(2**64 - 2**32 + 1), two_adicity(10**9 + 7)
    (23, 32, 1)
    """
    p = _check_int(p, "p")
    m = p - 1
    return (m & -m).bit_length() - 1 if m > 0 else 0


def primitive_root(p: Integer) -> int:
    """The smallest generator of the multiplicative group modulo the prime ``p``.

    Parameters
    ----------
    p : int
        A prime.

    Returns
    -------
    int
        The smallest g in [1, p) whose powers give every nonzero residue (1 for p = 2).

    Raises
    ------
    ValueError
        `p` is not prime.
    TypeError
        A non-integer `p`.

    See Also
    --------
    root_of_unity : Roots of a given order, from this generator.

    Examples
    --------
    >>> from ntt_cy.primes import primitive_root
    >>> primitive_root(998244353), primitive_root(7340033)
    (3, 3)
    """
    return _primitive_root(_check_int(p, "p"))   # (checked before the cache, as factorize)


@lru_cache(maxsize=1024)
def _primitive_root(p: int) -> int:
    if not is_prime(p):
        raise ValueError(f"p = {p} is not prime")
    if p == 2:
        return 1
    cofactors = [(p - 1) // q for q in factorize(p - 1)]
    g = 2
    while any(pow(g, e, p) == 1 for e in cofactors):
        g += 1
    return g


def root_of_unity(n: Integer, p: Integer,
                  root: Integer | None = None) -> int:
    """A primitive ``n``-th root of unity modulo the prime ``p`` (any n dividing p - 1).

    Parameters
    ----------
    n : int
        The order, n >= 1 dividing p - 1 (ValueError otherwise).
    p : int
        A prime.
    root : int, optional
        A candidate: returned (reduced mod p) when its order is exactly n, else
        ValueError.  None: ``g**((p-1)/n)`` for the smallest generator g, the root
        ntt_cy's transforms use by default.

    Returns
    -------
    int
        A root w in [1, p) with w**n = 1 and w**k != 1 for 0 < k < n.

    Raises
    ------
    ValueError
        n does not divide p - 1 (or is below 1), `p` is not prime, or `root` is not a
        primitive n-th root of unity.
    TypeError
        A non-integer argument.

    See Also
    --------
    primitive_root : The generator the default root comes from.

    Examples
    --------
    >>> from ntt_cy.primes import root_of_unity
    >>> w = root_of_unity(8, 17)
    >>> w, pow(w, 8, 17), pow(w, 4, 17)
    (9, 1, 16)
    >>> root_of_unity(8, 17, root=2)   # a root of one's own, checked
    2
    """
    n, p = _check_int(n), _check_int(p, "p")
    if n < 1 or (p - 1) % n:
        raise ValueError(f"n = {n} does not divide p - 1 = {p - 1}")
    if root is None:
        return pow(primitive_root(p), (p - 1) // n, p)
    root = _check_int(root, "root") % p
    if pow(root, n, p) != 1 or any(pow(root, n // q, p) == 1 for q in factorize(n)):
        raise ValueError(f"root = {root} is not a primitive {n}-th root of unity mod {p}")
    return root


def ntt_primes(bits: Integer, min_two_adicity: Integer | None = None,
               count: Integer = 1, *, n: Integer | None = None,
               allow_fewer: bool = False) -> list[int]:
    """The ``count`` largest primes ``p < 2**bits`` with ``2**min_two_adicity | p - 1``:
    primes for NTTs of length ``2**min_two_adicity`` (cyclic) or half of it
    (negacyclic).

    Parameters
    ----------
    bits : int
        Every prime is below ``2**bits`` (32: fits uint32 lanes, 62: the lazy family on
        uint64 lanes, 64: uint64 lanes).
    min_two_adicity : int, optional
        The least 2-adicity k (``2**k | p - 1``); give it or `n`.
    count : int
        How many primes, largest first.
    n : int, optional
        Instead of `min_two_adicity`: the transform length, a power of two (k = log2 n;
        pass 2n for negacyclic transforms of length n).
    allow_fewer : bool
        Return the primes there are when fewer than `count` exist (else ValueError).

    Returns
    -------
    list of int
        Largest first; each has 2-adicity k or more.

    Raises
    ------
    ValueError
        Fewer than `count` such primes (unless `allow_fewer`), `n` not a power of
        two, ``bits < 2``, a negative 2-adicity or ``count < 1``.
    TypeError
        Both or neither of `min_two_adicity` and `n`, or a non-integer argument.

    See Also
    --------
    two_adicity : The 2-adicity of a given prime.

    Examples
    --------
    >>> from ntt_cy.primes import ntt_primes
    >>> ntt_primes(31, 20, 3)
    [2130706433, 2114977793, 2113929217]
    >>> ntt_primes(64, n=2**32)
    [18446744069414584321]
    """
    bits = _check_int(bits, "bits")
    if (min_two_adicity is None) == (n is None):
        raise TypeError("give either min_two_adicity or n")
    if n is not None:
        n = _check_int(n, "n")
        if n < 1 or n & (n - 1):
            raise ValueError(f"n must be a power of two, got {n}")
        min_two_adicity = n.bit_length() - 1
    min_two_adicity = _check_int(min_two_adicity, "min_two_adicity")
    count = _check_int(count, "count")
    if bits < 2 or min_two_adicity < 0 or count < 1:
        raise ValueError(f"ntt_primes needs bits >= 2, min_two_adicity >= 0 and count >= 1, "
                         f"got {bits}, {min_two_adicity}, {count}")
    step = 1 << min_two_adicity
    c = ((1 << bits) - 2) // step
    found: list[int] = []
    while len(found) < count and c > 0:
        p = c * step + 1
        if is_prime(p):
            found.append(p)
        c -= 1
    if len(found) < count and not allow_fewer:
        raise ValueError(
            f"fewer than {count} primes below 2**{bits} with 2-adicity >= {min_two_adicity}"
        )
    return found
