"""Multi-prime CRT for exact integer convolutions: NTT prime pools, CRT bases, Garner.

A convolution modulo an arbitrary m is computed exactly over the integers: every
coefficient is a sum of at most n products of values in [0, m), so it lies in
[0, n (m - 1)^2].  Transforms modulo primes p_0, ..., p_{k-1} with
p_0 p_1 ... p_{k-1} > n (m - 1)^2 determine it uniquely; Garner's algorithm turns the
k residues into mixed-radix digits, x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)), which are
then reduced modulo m (or rebuilt as Python ints).

Two families of primes:
  uint32 lanes: primes < 2^30 (room for lazy reduction: 4p <= 2^32), ~29.9 bits each;
  uint64 lanes: primes < 2^62 (lazy: 4p <= 2^64; Garner needs p < 2^62), ~62 bits.
Which family a product uses is a cost decision, made in ntt_cy/_routing.py
(choose_basis); this module builds the bases (fewest_primes, basis_for, wide32_basis)
and runs their kernels (CRTBasis).  The kernels, by what they compute:
  Garner digits       garner32.pyx (primes < 2^31, 64-bit products),
                      garner64.pyx (primes < 2^62, 128-bit products);
  digits -> x mod m   garner32.mixed_radix_mod_weighted, garner64.mixed_radix_mod_horner
                      (one-word m), wide.mixed_radix_mod_multiword (m of several words);
  rows -> x mod m     garner_rows.pxi in every kernel build (ntt_cy._kernels.active:
                      garner32_mod, garner32_mod64, CRTProduct32, garner32_digits), the
                      vector Garner straight from the primes' uint32 transform rows;
  ints -> residues    wide.words_mod_primes / words_mod_small_primes (m >= 2^64).
All in ntt_cy/_kernels/crt/.
"""
from __future__ import annotations

import math
from functools import cached_property, lru_cache

import numpy as np

from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels.crt import garner32 as _garner32
from ntt_cy._kernels.crt import garner64 as _garner64
from ntt_cy._kernels.crt import wide as _wide
from ntt_cy._support.checks import is_integer
from ntt_cy._support.scratch import scratch
from ntt_cy._support.threads import check_thread_count
from ntt_cy.plan import get_plan, modulus_constants
from ntt_cy.primes import is_prime, ntt_primes

__all__ = ["CRTBasis", "fewest_primes", "basis_for", "wide32_basis", "crt_basis", "prime_pool",
           "MAX_PRIMES", "WIDE32_MAX_PRIMES"]

U32, U64 = np.dtype(np.uint32), np.dtype(np.uint64)

# Prime size per lane family (bits: every prime is below 2**bits).
LANE_BITS = {U32: 30, U64: 62}

# The 2-adicity every pool prime has at least (one fixed pool per family for all
# lengths up to 2^MIN_ADICITY, so plans and tables are shared across sizes).
MIN_ADICITY = {U32: 20, U64: 32}

MAX_PRIMES = 16  # garner64.garner_digits' limit
GARNER32_MAX_PRIMES = 8  # the fused kernel's limit (ntt_cy/_kernels/crt/garner_rows.pxi)
# Moduli of several words take uint32 primes where they pay (wide32_basis): up to
# _ntt.garner32_digits' limit, ~950 bits of product (m up to ~460 bits at n = 2^17).
WIDE32_MAX_PRIMES = 32


@lru_cache(maxsize=None)
def prime_pool(dtype, min_adicity: int, count: int = MAX_PRIMES) -> tuple:
    """Up to `count` largest primes p < 2**LANE_BITS[dtype] with 2**min_adicity | p - 1,
    largest first (possibly fewer, or none, for large min_adicity)."""
    return tuple(ntt_primes(LANE_BITS[np.dtype(dtype)], min_adicity, count, allow_fewer=True))


def fewest_primes(bound: int, log2n: int, dtype) -> "tuple | None":
    """The fewest primes of one lane family (the largest first) whose product exceeds
    `bound`, each with 2-adicity >= log2n, or None."""
    dt = np.dtype(dtype)
    return _fewest(prime_pool(dt, max(MIN_ADICITY[dt], log2n)), bound)


def _fewest(pool, bound):
    """Shortest prefix of `pool` whose product exceeds `bound`, or None."""
    prod = 1
    for k, p in enumerate(pool, 1):
        prod *= p
        if prod > bound:
            return pool[:k]
    return None


def basis_for(bound: int, log2n: int, dtype) -> "CRTBasis | None":
    """fewest_primes(bound, log2n, dtype) as a CRTBasis, or None."""
    primes = fewest_primes(bound, log2n, dtype)
    return None if primes is None else crt_basis(primes, np.dtype(dtype))


def wide32_basis(bound: int, log2n: int) -> "CRTBasis | None":
    """The fewest uint32-family primes (at most WIDE32_MAX_PRIMES) whose product exceeds
    `bound`, for transforms of length 2**log2n, as a basis whose digits
    _ntt.garner32_digits computes (every prime below twice the smallest), or None.
    Moduli of several words use it where it pays (ntt_cy/_routing.py, crt32_words):
    30-bit lanes run several times faster a butterfly than 62-bit ones on the vector
    builds, more than the extra primes and the quadratic digits cost at large n."""
    pool = prime_pool(U32, max(MIN_ADICITY[U32], log2n), WIDE32_MAX_PRIMES)
    primes = _fewest(pool, bound)
    if primes is None or max(primes) >= 2 * min(primes):
        return None
    return crt_basis(primes, U32)


def _word_count(v: int) -> int:
    """64-bit words that hold v >= 0 (at least one)."""
    return max(1, -(-v.bit_length() // 64))


def _int_words(values, words: int):
    """(N, words) uint64 little-endian words of N exact Python ints in [0, 2^(64 words))
    (a list, or an object ndarray of any shape), or None if one is not such an int."""
    values = np.asarray(values, dtype=object)
    out = np.empty((values.size, words), dtype=np.uint64)
    return out if _wide.words_of_ints(values, out) else None


def _ints_mod(digits, constants, rows, threads):
    """sum_j digits[j] W_j mod m for every column, as an object array of Python ints
    (N,), its words computed into rows (N, M) first (_wide.mixed_radix_mod_multiword, then
    _wide.ints_from_words); constants: _weight_words(m) (or their pairs), None for
    m = 1 (every value 0)."""
    out = np.empty(rows.shape[0], dtype=object)
    if constants is None:
        out[:] = [0] * rows.shape[0]
        return out
    weights, quotients, m_words = constants
    _wide.mixed_radix_mod_multiword(digits, weights, quotients, m_words, rows, threads)
    out[:] = _wide.ints_from_words(rows)
    return out


@lru_cache(maxsize=64)
def crt_basis(primes: tuple, dtype) -> "CRTBasis":
    return CRTBasis(primes, dtype)


class CRTBasis:
    """k distinct primes p_j < 2**62, the lane dtype their transforms use, and the
    Garner constants.  Digits: x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)), v_j in [0, p_j)."""

    def __init__(self, primes, dtype):
        primes = tuple(int(p) for p in primes)
        # (more than MAX_PRIMES only for wide32_basis: uint32 primes, garner32_digits)
        limit = WIDE32_MAX_PRIMES if np.dtype(dtype) == U32 else MAX_PRIMES
        if not 1 <= len(primes) <= limit or len(set(primes)) != len(primes):
            raise ValueError(f"need 1..{limit} distinct primes, got {primes}")
        if any(p >= 1 << 62 or not is_prime(p) for p in primes):
            raise ValueError("CRT primes must be primes below 2**62")
        self.primes = primes
        self.dtype = np.dtype(dtype)
        self.k = len(primes)
        self.product = math.prod(primes)
        self.primes_array = np.array(primes, dtype=np.uint64)
        # Primes below 2^31 (the uint32 family) use the 64-bit kernels of _garner32.
        self.small = max(primes) < 1 << 31
        word = 32 if self.small else 64
        k = self.k
        inv = np.zeros((k, k), dtype=np.uint64)
        inv_q = np.zeros((k, k), dtype=np.uint64)
        for j, pj in enumerate(primes):
            for i in range(j + 1):
                c = 1 if i == j else pow(primes[i], -1, pj)
                inv[i, j] = c
                inv_q[i, j] = (c << word) // pj
        self._inv, self._inv_q = inv, inv_q
        # reduce_products32's kernel needs each digit reducible mod another prime by one
        # subtraction: max p < 2 min p.
        self._fused32_basis = (self.small and self.dtype == U32 and k <= GARNER32_MAX_PRIMES
                               and max(primes) < 2 * min(primes))

    def __repr__(self):
        return f"CRTBasis(primes={self.primes}, dtype={self.dtype.name})"

    def digits(self, residues: np.ndarray, threads: int,
               out: np.ndarray | None = None) -> np.ndarray:
        """Garner digits (k, N) uint64 from residues (k, N) uint64 (residues[j] < p_j).
        `out` may be `residues` itself (each column is read before it is overwritten)."""
        self._check_rows(residues, "residues", threads)
        if out is None:
            out = np.empty_like(residues)
        elif out.shape != residues.shape:
            raise ValueError(f"out has shape {out.shape}, residues {residues.shape}")
        kernel = _garner32.garner_digits32 if self.small else _garner64.garner_digits
        kernel(residues, self.primes_array, self._inv, self._inv_q, out, threads)
        return out

    def _check_rows(self, rows, name, threads):
        # (the kernels index the basis' k-entry tables by row and trust the OpenMP count)
        if not isinstance(rows, np.ndarray) or rows.ndim != 2 or rows.shape[0] != self.k:
            shape = getattr(rows, "shape", None)
            raise ValueError(f"{name} must be a 2-D array of {self.k} rows (one per prime), "
                             f"got shape {shape}")
        check_thread_count(threads)

    def reduce(self, digits: np.ndarray, m: int, threads: int,
               out: np.ndarray | None = None) -> np.ndarray:
        """x mod m (uint64, shape (N,)) for every column x of the digits; 1 <= m < 2**64."""
        self._check_rows(digits, "digits", threads)
        if not (is_integer(m) and 1 <= m < 1 << 64):
            raise ValueError(f"m must be an integer with 1 <= m < 2**64, got {m!r}")
        m = int(m)
        N = digits.shape[1]
        if out is None:
            out = np.empty(N, dtype=np.uint64)
        elif out.shape != (N,):
            raise ValueError(f"out has shape {out.shape}, the digits' columns ({N},)")
        if m == 1:
            out[...] = 0
            return out
        if self.k == 1 and m > self.primes[0]:
            out[...] = digits[0]
            return out
        c, prime_mod_m, weights, one_word = self._mod_constants(m)
        if self.small:
            _garner32.mixed_radix_mod_weighted(digits, weights, m, c["barrett_d"], c["barrett_v"],
                                               c["barrett_shift"], one_word, out, threads)
        else:
            _garner64.mixed_radix_mod_horner(digits, prime_mod_m, m, c["barrett_d"],
                                             c["barrett_v"], c["barrett_shift"], out, threads)
        return out

    def fused32(self, m: int) -> bool:
        """Whether reduce_products serves modulus m with garner32_mod (small primes,
        m < 2**32).  Such
        products may also read their inputs unchecked: every value is read mod each
        prime as it is loaded, and the transforms' largest-value report is the whole
        range check (see ntt_cy/_products.py, crt_product; so may fused64's one-call
        products)."""
        return self._fused32_basis and 2 <= m < 1 << 32

    def fused64(self, m: int) -> bool:
        """Whether reduce_products serves modulus m with its 128-bit sum: the primes
        fused32 takes, and a modulus it does not (2^32 <= m < 2^64)."""
        return self._fused32_basis and 1 << 32 <= m < 1 << 64

    def fused(self, m: int) -> bool:
        """fused32(m) or fused64(m): every coefficient mod m is rebuilt in one pass
        straight from the primes' uint32 rows (reduce_products, fused_product32)."""
        return self._fused32_basis and 2 <= m < 1 << 64

    def reduce_products(self, products: np.ndarray, m: int, offset: int,
                        out: np.ndarray, threads: int) -> np.ndarray:
        """c mod m for every convolution coefficient c, straight from the transform
        rows (fused(m) only).  products (k, R, N) uint32: products[j] = c mod p_j;
        out (R, L), L <= N, gets the first L coefficients of each row: uint32 or
        uint64 for m < 2^32 (_ntt.garner32_mod), uint64 above (_ntt.garner32_mod64,
        the weighted sum in 128-bit arithmetic).  x = c + offset must lie in [0, p_0
        ... p_{k-1}): the offset (see ntt_cy/_routing.py, Route) lifts signed (negacyclic)
        coefficients into that range."""
        weights, weights_q, barrett = self._garner_weights(m)
        head = (self.primes_array, self._inv, self._inv_q, self._offsets(offset), m, weights)
        if m < 1 << 32:
            _ntt.garner32_mod(products, *head, weights_q, offset % m, out, threads)
        else:
            _ntt.garner32_mod64(products, *head, *barrett, offset % m, out, threads)
        return out

    @lru_cache(maxsize=32)
    def fused_product32(self, n: int, m: int, offset: int = 0) -> "_ntt.CRTProduct32":
        """The whole product in one kernel call (fused(m) only): every prime's
        zero-padded cyclic product of length n, then reduce_products' reconstruction
        (_ntt.CRTProduct32; built once per n, m and offset)."""
        weights, weights_q, barrett = self._garner_weights(m)
        tables = self._tables(n)
        return _ntt.CRTProduct32(tables, self.primes_array, self._inv, self._inv_q,
                                 self._offsets(offset), m, weights, weights_q, offset % m,
                                 *barrett)

    @lru_cache(maxsize=32)
    def padded_products(self, n: int) -> "_ntt.PaddedProducts":
        """Every prime's zero-padded cyclic product of length n in one kernel call, each
        prime's operands its own residue rows (_ntt.PaddedProducts; built once per n)."""
        return _ntt.PaddedProducts(self._tables(n), self.primes_array)

    def _tables(self, n):
        """Every prime's transform tables of length n (its plan's default family)."""
        return tuple(plan.tables(plan.reduction) for plan in
                     (get_plan(n, p, dtype=self.dtype) for p in self.primes))

    def _garner_weights(self, m):
        """The reconstruction kernels' constants for m: the weights W_j, their Shoup
        quotients (m < 2^32) and m's barrett_mul64 constants (the 128-bit sum)."""
        weights, weights_q = self._shoup_weights(m)
        c = self._mod_constants(m)[0]
        return weights, weights_q, (c["barrett_d"], c["barrett_v"], c["barrett_shift"])

    @lru_cache(maxsize=32)
    def _offsets(self, offset):
        """offset mod p_j for every prime, uint64 (read-only: shared between calls)."""
        out = np.array([offset % p for p in self.primes], dtype=np.uint64)
        out.setflags(write=False)
        return out

    @lru_cache(maxsize=32)
    def _shoup_weights(self, m):
        """W_j = p_0 ... p_{j-1} mod m (as _mod_constants) and floor(W_j 2^32 / m) (the
        Shoup quotients of garner32_mod, m < 2^32; unused by the m >= 2^32 kernels)."""
        weights = self._mod_constants(m)[2]
        return weights, np.array([(int(w) << 32) // m for w in weights], dtype=np.uint64)

    @lru_cache(maxsize=32)
    def _mod_constants(self, m):
        """Reduction constants of m; p_j mod m (Horner form); W_j = p_0 ... p_{j-1} mod m
        and whether sum_j (p_j - 1) W_j stays below 2^64 (weighted-sum form)."""
        prime_mod_m = np.array([p % m for p in self.primes], dtype=np.uint64)
        weights = self._prefix_products_mod(m)
        one_word = sum((p - 1) * w for p, w in zip(self.primes, weights)) < 1 << 64
        return (modulus_constants(m, U64), prime_mod_m,
                np.array(weights, dtype=np.uint64), one_word)

    def residues_of_ints(self, values: np.ndarray, bound: int, threads: int,
                         out: np.ndarray | None = None) -> np.ndarray:
        """(k,) + values.shape uint64: values mod every prime.  values: an object array
        of exact Python ints in [0, bound), as the caller guarantees (one that is not
        an exact int of bound's words raises ValueError).  Their words
        (_wide.words_of_ints) go to C (_wide.words_mod_primes), instead of an
        object-array `% p` per prime.  out: a (k, values.size) uint64 buffer for them."""
        check_thread_count(threads)
        words = _int_words(values, _word_count(bound - 1))
        if words is None:
            raise ValueError(f"internal: residues_of_ints needs exact ints in [0, {bound})")
        if out is None:
            out = np.empty((self.k, values.size), dtype=np.uint64)
        if self.small:
            _wide.words_mod_small_primes(words, self._half_word_powers(words.shape[1]),
                                         self._barrett, out, threads)
        else:
            _wide.words_mod_primes(words, self.primes_array, self._barrett, out, threads)
        return out.reshape((self.k,) + values.shape)

    @lru_cache(maxsize=8)
    def _half_word_powers(self, words):
        """(2 words, k) uint32: 2^(32 s) mod p_j (_wide.words_mod_small_primes)."""
        return np.array([[pow(2, 32 * s, p) for p in self.primes] for s in range(2 * words)],
                        dtype=np.uint32)

    @cached_property
    def _barrett(self):
        """(k, 3) uint64: every prime's barrett_mul64 constants (d, v, shift)."""
        table = [[c["barrett_d"], c["barrett_v"], c["barrett_shift"]]
                 for c in (modulus_constants(p, U64) for p in self.primes)]
        return np.array(table, dtype=np.uint64)

    def reduce_ints(self, digits: np.ndarray, m: int, threads: int) -> np.ndarray:
        """x mod m for every column x of the digits, as an object array of Python ints
        (N,); any m >= 1.  The sum of v_j (p_0 ... p_{j-1} mod m) is reduced mod m in
        C (_wide.mixed_radix_mod_multiword, Shoup products on words), and the words
        become Python ints there too (_wide.ints_from_words)."""
        self._check_rows(digits, "digits", threads)
        return _ints_mod(digits, self._weight_words(m) if m > 1 else None,
                         np.empty((digits.shape[1], _word_count(m)), dtype=np.uint64), threads)

    def reduce_products_ints(self, products: np.ndarray, L: int, m: int,
                             threads: int) -> np.ndarray:
        """x mod m for the first L coefficients x of every row, as an object array of
        Python ints (R * L,), straight from the uint32 transform rows (wide32_basis
        bases): products (k, R, N), products[j] = x mod p_j.  Garner's digits in the
        vector kernels (_ntt.garner32_digits), then paired, u_i = v_2i + p_2i v_2i+1 <
        2^60 (half the terms for the word products), reduced as reduce_ints.
        Its temporaries live in scratch slots (fresh ones fault: ~5 ms at 2^15 values)."""
        k, R = self.k, products.shape[1]
        if m == 1:
            return _ints_mod(None, None, np.empty((R * L, 1), dtype=U64), threads)
        digits = scratch("digits", (k, R, L), U32)
        _ntt.garner32_digits(products, self.primes_array, self._inv, self._inv_q, digits,
                             threads)
        digits = digits.reshape(k, R * L)
        half = k // 2
        paired = scratch("paired_digits", ((k + 1) // 2, R * L), U64)
        np.multiply(digits[1::2], self.primes_array[0:2 * half:2, None], out=paired[:half])
        paired[:half] += digits[0:2 * half:2]
        if k % 2:
            paired[half] = digits[k - 1]
        rows = scratch("result_words", (R * L, _word_count(m)), U64)
        return _ints_mod(paired, self._paired_weight_words(m), rows, threads)

    @lru_cache(maxsize=32)
    def _paired_weight_words(self, m):
        """_weight_words(m) of the even digits alone (reduce_products_ints' pairs)."""
        weights, quotients, m_words = self._weight_words(m)
        return (np.ascontiguousarray(weights[0::2]), np.ascontiguousarray(quotients[0::2]),
                m_words)

    @lru_cache(maxsize=32)
    def _weight_words(self, m):
        """_wide.mixed_radix_mod_multiword's constants for m >= 2: W_j = p_0 ... p_{j-1}
        mod m (k, M) and floor(W_j 2^64 / m) (k,) as uint64 words, and m's M words."""
        words = _word_count(m)
        weights = self._prefix_products_mod(m)
        quotients = np.array([(w << 64) // m for w in weights], dtype=np.uint64)
        return _int_words(weights, words), quotients, _int_words([m], words)[0]

    def _prefix_products_mod(self, m):
        """W_j = p_0 ... p_{j-1} mod m for every j, Python ints (Garner's weights)."""
        return [math.prod(self.primes[:j]) % m for j in range(self.k)]

    def to_ints(self, digits: np.ndarray) -> np.ndarray:
        """The integers x themselves, as a numpy object array of Python ints (N,)."""
        acc = digits[self.k - 1].astype(object)
        for j in range(self.k - 2, -1, -1):
            acc = acc * self.primes[j] + digits[j].astype(object)
        return acc
