"""Independent Python-integer references for testing the GPU path (slow; small sizes).

dft: the O(n^2) definition; ntt_fast: an iterative radix-2 transform on Python ints
(different structure from the kernels); polymul: schoolbook products.
"""
from __future__ import annotations

import numpy as np

from ..primes import root_of_unity

__all__ = ["dft", "idft", "ntt_fast", "polymul", "bit_reverse_permutation"]


def _roots(n: int, p: int, kind: str) -> tuple:
    if kind == "negacyclic":
        psi = root_of_unity(2 * n, p)
        return psi * psi % p, psi
    return root_of_unity(n, p), 1


def dft(a, p: int, kind: str = "cyclic") -> list:
    """A[k] = sum_i a[i] psi^i w^(ik) mod p (psi = 1 for cyclic), by definition."""
    a = [int(x) for x in a]
    n = len(a)
    w, psi = _roots(n, p, kind)
    twisted = [x * pow(psi, i, p) % p for i, x in enumerate(a)]
    return [sum(x * pow(w, i * k, p) for i, x in enumerate(twisted)) % p for k in range(n)]


def idft(A, p: int, kind: str = "cyclic") -> list:
    """The inverse of dft: a[i] = n^-1 psi^-i sum_k A[k] w^(-ik)."""
    A = [int(x) for x in A]
    n = len(A)
    w, psi = _roots(n, p, kind)
    winv, psinv, ninv = pow(w, -1, p), pow(psi, -1, p), pow(n, -1, p)
    return [sum(X * pow(winv, i * k, p) for k, X in enumerate(A)) * ninv * pow(psinv, i, p) % p
            for i in range(n)]


def bit_reverse_permutation(n: int) -> np.ndarray:
    bits = n.bit_length() - 1
    return np.array([int(f"{j:0{bits}b}"[::-1], 2) if bits else 0 for j in range(n)], dtype=np.int64)


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
