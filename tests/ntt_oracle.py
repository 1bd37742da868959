"""Independent oracles on Python ints (no ntt_cy kernel code): the O(n^2) DFT, an
O(n log n) object-array NTT of a different structure, and schoolbook products."""
import functools

import numpy as np

from ntt_cy.primes import root_of_unity, ntt_primes

# The reference table of NTT-friendly primes (p, documented primitive root).
REFERENCE_PRIMES = [
    (3329, 3), (7340033, 3), (8380417, 10), (104857601, 3), (167772161, 3),
    (469762049, 3), (998244353, 3), (1004535809, 3), (2013265921, 31),
    (2281701377, 3), (1337006139375617, 3), (2**64 - 2**32 + 1, 7),
]
PRIME_BELOW_2_62 = ntt_primes(62, 32, 1)[0]
PRIME_BELOW_2_63 = ntt_primes(63, 32, 1)[0]
# The edges of the AVX2 build's double-precision uint64 kernels (p < 2^51 - 2^29,
# ntt_cy/_kernels/simd/ntt64/avx2.h): the largest NTT prime below the bound (2-adicity 20) and the
# smallest above it (2-adicity 24, integer kernels).
FLOAT_PATH_TOP = 2251799235919873
FLOAT_PATH_ABOVE = 2251799394254849
# Primes between that bound and 2^52, where the double-precision kernels would lose
# exactness (their conversions need 2p < 2^52) and the integer kernels must run.
PAST_FLOAT_PATH = [3377699723673601, 4503599088402433]
LARGEST_PRIMES = [2281701377, 2**64 - 2**32 + 1, PRIME_BELOW_2_62, PRIME_BELOW_2_63,
                  FLOAT_PATH_TOP, FLOAT_PATH_ABOVE]


def dft(a, p, kind="cyclic"):
    """A[k] = sum a[i] w^(ik) (cyclic) or sum a[i] psi^(i(2k+1)) (negacyclic), mod p."""
    n = len(a)
    order = n if kind == "cyclic" else 2 * n
    r = root_of_unity(order, p)
    powers = [1] * order
    for i in range(1, order):
        powers[i] = powers[i - 1] * r % p
    a = [int(x) for x in a]
    # idx[k, i]: the exponent of a[i]'s power in A[k], reduced mod the root's order
    i, k = np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)[:, None]
    idx = i * k % n if kind == "cyclic" else i * (2 * k + 1) % (2 * n)
    if p < 2**32 and n > 1:  # exact in uint64: each product reduced below 2^32, n sums < 2^43
        table = np.array(powers, dtype=np.uint64)[idx]
        prod = (table * np.array(a, dtype=np.uint64)) % np.uint64(p)
        return [int(x) for x in prod.sum(axis=1) % np.uint64(p)]
    table = np.array(powers, dtype=object)[idx]   # (Python ints: exact)
    values = np.empty(n, dtype=object)
    values[:] = a
    return [int(x) % p for x in (table * values).sum(axis=1)]


def cyclic_convolution(a, b, p):
    return polymul(a, b, p, "cyclic")


def _roots(n: int, p: int, kind: str) -> tuple:
    if kind == "negacyclic":
        psi = root_of_unity(2 * n, p)
        return psi * psi % p, psi
    return root_of_unity(n, p), 1


@functools.lru_cache(maxsize=8)
def bit_reverse_permutation(n: int) -> np.ndarray:
    """rev[j] = j with its log2(n) bits reversed (n a power of two), read-only: built by
    doubling, rev over 2m values = (2 rev over m, 2 rev over m + 1) (the top bit of j
    becomes the lowest)."""
    rev = np.zeros(1, dtype=np.int64)
    while len(rev) < n:
        rev = np.concatenate([2 * rev, 2 * rev + 1])
    rev.setflags(write=False)
    return rev


def ntt_fast(a: np.ndarray, p: int, kind: str = "cyclic") -> np.ndarray:
    """Forward transform of every row (last axis) by iterative decimation in time on object
    arrays of Python ints; same definition as dft, O(n log n)."""
    a = np.asarray(a)
    n = a.shape[-1]
    w, psi = _roots(n, p, kind)
    x = np.array(a, dtype=object) % p
    if kind == "negacyclic":
        x = x * np.array([pow(psi, i, p) for i in range(n)], dtype=object) % p
    x = x[..., bit_reverse_permutation(n)]
    length = 2
    while length <= n:
        wl = pow(w, n // length, p)
        tw = np.array([pow(wl, j, p) for j in range(length // 2)], dtype=object)
        x = x.reshape(x.shape[:-1] + (n // length, length))
        lo, hi = x[..., : length // 2], x[..., length // 2:] * tw % p
        x = np.concatenate([(lo + hi) % p, (lo - hi) % p], axis=-1).reshape(x.shape[:-2] + (n,))
        length *= 2
    return x


def polymul(a, b, m: int, kind: str = "linear") -> list:
    """Schoolbook product of coefficient lists modulo m; cyclic / negacyclic fold to len(a)."""
    a, b = [int(x) for x in a], [int(x) for x in b]
    c = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                c[i + j] += x * y
    if kind != "linear":
        n = len(a)
        sign = 1 if kind == "cyclic" else -1
        c = [c[i] + (sign * c[i + n] if i + n < len(c) else 0) for i in range(n)]
    return [x % m for x in c]
