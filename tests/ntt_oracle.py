"""Independent O(n^2) oracles on Python ints (no ntt_cy kernel code involved)."""
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
LARGEST_PRIMES = [2281701377, 2**64 - 2**32 + 1, PRIME_BELOW_2_62, PRIME_BELOW_2_63]


def dft(a, p, kind="cyclic"):
    """A[k] = sum a[i] w^(ik) (cyclic) or sum a[i] psi^(i(2k+1)) (negacyclic), mod p."""
    n = len(a)
    if kind == "cyclic":
        order, step = n, lambda i, k: (i * k) % n
    else:
        order, step = 2 * n, lambda i, k: (i * (2 * k + 1)) % (2 * n)
    r = root_of_unity(order, p)
    powers = [1] * order
    for i in range(1, order):
        powers[i] = powers[i - 1] * r % p
    a = [int(x) for x in a]
    if p < 2**32 and n > 1:  # exact in uint64: each product reduced below 2^32, n sums < 2^43
        idx = np.array([[step(i, k) for i in range(n)] for k in range(n)], dtype=np.int64)
        table = np.array(powers, dtype=np.uint64)[idx]
        prod = (table * np.array(a, dtype=np.uint64)) % np.uint64(p)
        return [int(x) for x in prod.sum(axis=1) % np.uint64(p)]
    return [sum(a[i] * powers[step(i, k)] for i in range(n)) % p for k in range(n)]


def cyclic_convolution(a, b, p):
    n = len(a)
    out = [0] * n
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[(i + j) % n] += int(x) * int(y)
    return [v % p for v in out]
