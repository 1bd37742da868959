"""The one cost model of products, and the route each product takes.

polymul (ntt_cy/poly.py), its one-call products of a single row (ntt_cy/_single_row.py)
and bigmul (ntt_cy/bigint.py) ask here how to compute a product; ntt_cy/_products.py and
the kernels then compute it.  Every measured constant behind these choices is in this
file, with how it is fitted.

Routes of R products of rows of lengths na, nb modulo m (product_route, a Route):
  zero               m = 1: every coefficient is 0;
  schoolbook         quadratic, nogil (ntt_cy/_kernels/schoolbook.pyx), m < 2**64, where
                     the cost model says it beats the transforms;
  direct             m is a prime < 2**64 with 2-adicity >= log2(transform length): the
                     transforms run modulo m itself;
  crt                any other m < 2**64: the exact integer product through several NTT
                     primes (choose_basis) and Garner (ntt_cy/_crt.py), reduced modulo m;
                     this covers composite and even moduli, powers of two and primes
                     without the roots (10**9+7, 10**18+9);
  python_schoolbook  m >= 2**64 (object arrays of Python ints), small products;
  crt_words          m >= 2**64: CRT as above, the operands' residues and the
                     coefficients mod m computed on 64-bit words in C;
  crt32_words        the same on up to 32 ~30-bit primes with vector Garner digits, from
                     transform length WIDE32_MIN_LENGTH on.
Cyclic and negacyclic products of a power-of-two length n that m (direct) or the CRT
primes support run transforms of length n (negacyclic with the psi twist); any other is
the linear product, folded modulo x^n - 1 / x^n + 1 (Route.fold).

The cost model estimates nanoseconds: transforms from transform_costs(), the active
kernels timed once per process, plus fixed costs per call, per prime and per row and the
CRT reconstruction per coefficient; the schoolbook from SCHOOL_NS.  Routes are cached per
(R, na, nb, m, kind); clear_caches() forgets them (for code that changes the model).
"""
from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ntt_cy._crt import (LANE_BITS, MAX_PRIMES, MIN_ADICITY, U32, U64, CRTBasis, basis_for,
                         crt_basis, fewest_primes, prime_pool, wide32_basis)
from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels import schoolbook as _schoolbook
from ntt_cy.plan import ROW_CALL_BELOW_N, get_plan
from ntt_cy.primes import is_prime, two_adicity

__all__ = ["Route", "product_route", "single_row_route", "choose_basis", "bigmul_route",
           "bigmul_scheme", "transform_costs", "lane_costs", "clear_caches"]

# ---------------------------------------------------------------- measured constants
# Every figure below is one thread.  The schoolbook/transform constants are checked
# together: polymul with each route forced (tests/test_poly.py's force_path) around the
# crossover, against the route the model picks; `python asv_bench/scripts/small_calls.py`
# times polymul at those lengths.

# Schoolbook: (ns per product, ns per output coefficient) for each of its accumulations
# (schoolbook.accumulation_name; "wide" costed at its dearer form, m near 2**64): a least
# squares fit to SingleRowSchoolbook.product at na x nb = 16 x 16 .. 256 x 256, 8 x 512
# and 32 x 1024, m = 1000003, 10**9+7, 2**61-1 and 2**64-59, less the ~0.3 us call.
SCHOOL_NS = {"one_word": (0.2, 6.0), "split": (0.37, 5.1), "wide": (1.05, 11.0)}
# Schoolbook products from which the schoolbook runs threaded (below, fork/join costs more).
SCHOOL_PARALLEL_MIN = 1 << 20
# Fixed ns per prime and per CRT product on the general route, and the same when the whole
# product is one kernel call (padded_product, CRTBasis.fused_product32); fitted so that
# the model's crossover with the schoolbook matches the forced routes' (na = nb = n, one
# row).
PRIME_NS, CRT_NS = 10000.0, 15000.0
PRIME_NS_ONE_CALL, CRT_NS_ONE_CALL = 100.0, 0.0
# Batches of short rows: fixed ns per row and prime; below SCALAR_BELOW the transforms run
# scalar code, SCALAR_FACTOR times the calibrated cost per element and stage.  Fitted to
# R = 1000 rows mod 998244353 at transform lengths 8 .. 64 against the schoolbook.
ROW_NS, SCALAR_BELOW, SCALAR_FACTOR = 150.0, 64, 10.0
# CRT reconstruction, ns per prime per output coefficient: Garner digits then the reduction
# mod m for ~30-bit and ~62-bit primes, and the fused reconstruction from the primes'
# uint32 rows (m < 2**32, and its 128-bit form below 2**64); fitted with the fixed costs.
CRT_COEFF_NS = {U32: 4.0, U64: 12.0}
CRT_COEFF_NS_FUSED, CRT_COEFF_NS_FUSED64 = 0.5, 2.0
# m >= 2**64: the Python-int schoolbook serves products with R na nb log2(m) up to
# OBJECT_SCHOOLBOOK_BITS (where it crosses the transforms: 32 x 32 for 65- to 127-bit m,
# 16 x 16 .. 32 x 32 for 254-bit m), and up to OBJECT_SCHOOLBOOK_MAX products where no
# CRT basis reaches the bound (m of thousands of bits).
OBJECT_SCHOOLBOOK_BITS = 1 << 16
OBJECT_SCHOOLBOOK_MAX = 4096
# Transform length from which moduli of several words take ~30-bit primes (crt32_words,
# about twice as many as 62-bit ones: the faster uint32 transforms outweigh the quadratic
# digits); set by polymul of BN254 and 2**127-1 operands on both routes, this constant
# switched (below it the two are within noise).
WIDE32_MIN_LENGTH = 1 << 8

# bigmul: the limb widths tried (bytes), and the smaller operand's size (bits) from which
# the NTT beats CPython's product: BIGMUL_MIN_BITS when it is one kernel call,
# PER_PRIME_MIN_BITS on the per-prime route.  Fitted by timing bigmul with both set to 0
# against x * y at 6,000 .. 20,000 bits, balanced operands (on each route: the per-prime
# one forced as tests/test_bigint.py forces it).
LIMB_CHOICES = (2, 3, 4, 5, 6)
BIGMUL_MIN_BITS = 7_000
PER_PRIME_MIN_BITS = 18_000

# transform_costs() times transforms of this length.
CALIBRATION_LOG2N = 14


# ---------------------------------------------------------------- transform costs

@lru_cache(maxsize=1)
def transform_costs() -> tuple:
    """(ns, ratio), measured once per process with the active kernels, one thread:
    ns = time of one uint32 transform at n = 2^14 per element per stage (n log2 n),
    ratio = time of a uint64 transform / a uint32 one (clamped to [0.5, 8]).  Minimum
    over interleaved repetitions of a forward + inverse pair.  The ratio depends on the
    kernel build (near 1 for the portable build, several times for AVX-512's vector
    uint32 butterflies against its uint64 ones): measured, not written down."""
    n = 1 << CALIBRATION_LOG2N
    runs = {}
    for dt in (U32, U64):
        p = prime_pool(dt, MIN_ADICITY[dt])[0]
        plan = get_plan(n, p, dtype=dt)
        tables = plan.tables(plan.reduction)
        x = (np.arange(n, dtype=np.uint64) * 0x9E3779B9 % p).astype(dt).reshape(1, n)
        runs[dt] = (x, tables)
    best = {U32: math.inf, U64: math.inf}
    for _ in range(7):
        for dt, (x, tables) in runs.items():
            t0 = time.perf_counter()
            _ntt.forward(x, x, tables, 1, False)
            _ntt.inverse(x, x, tables, 1, False)
            best[dt] = min(best[dt], (time.perf_counter() - t0) / 2)
    ns = best[U32] / (n * CALIBRATION_LOG2N) * 1e9
    return ns, min(max(best[U64] / best[U32], 0.5), 8.0)


def lane_costs() -> dict:
    """Relative cost of one transform per lane family (uint32 = 1)."""
    return {U32: 1.0, U64: transform_costs()[1]}


def lane_cost(p: int) -> float:
    """lane_costs() of the lanes a prime p takes (uint32 below 2^30)."""
    return lane_costs()[U32 if p < 1 << 30 else U64]


def transform_cost(R, N, k_weighted, k, crt=None, one_call=False, wide=False) -> float:
    """Estimated ns for k primes (k_weighted: k times their lane cost) at length N, R
    rows, plus the CRT reconstruction of ~N output coefficients when crt is a basis
    dtype.  one_call: each prime's product is one padded_product call (and for CRT, the
    fused reconstruction serves m); wide: that reconstruction is the 128-bit one
    (m >= 2^32)."""
    ns = transform_costs()[0] * (SCALAR_FACTOR if N < SCALAR_BELOW else 1.0)
    prime_ns, crt_ns = (PRIME_NS_ONE_CALL, CRT_NS_ONE_CALL) if one_call else (PRIME_NS, CRT_NS)
    cost = 3 * R * N * max(N.bit_length() - 1, 1) * ns * k_weighted + (prime_ns + ROW_NS * R) * k
    if crt is not None:
        coeff_ns = (CRT_COEFF_NS_FUSED64 if wide else CRT_COEFF_NS_FUSED) if one_call \
            else CRT_COEFF_NS[crt]
        cost += crt_ns + coeff_ns * k * R * N
    return cost


def schoolbook_cheaper(R, na, nb, m, transform_ns) -> bool:
    """Whether R schoolbook products of lengths na, nb mod m (2 <= m < 2**64) beat
    `transform_ns`."""
    per_product, per_out = SCHOOL_NS[_schoolbook.accumulation_name(m, min(na, nb))]
    return R * (na * nb * per_product + (na + nb - 1) * per_out) < transform_ns


# ---------------------------------------------------------------- transform shapes

def transform_length(L: int) -> int:
    """The power-of-two transform length for L coefficients."""
    return 1 << (L - 1).bit_length()


def fits_padded_half(na: int, nb: int, N: int) -> bool:
    """Whether rows of lengths na, nb fit the zero-padded half of length-N transforms,
    where the one-call kernels (padded_product, CRTProduct32, PaddedProducts, the
    single-row products) take them."""
    return N >= 8 and 2 * max(na, nb) <= N


def direct_prime(m: int, log2n: int) -> bool:
    """Whether m itself serves as the transform prime for length 2**log2n."""
    return m < 1 << 64 and two_adicity(m) >= log2n and is_prime(m)


# ---------------------------------------------------------------- CRT bases

def choose_basis(bound: int, log2n: int, u64_cost: float | None = None) -> CRTBasis:
    """The cheapest set of NTT primes whose product exceeds `bound`, each supporting
    transforms of length 2**log2n (2-adicity >= log2n), as a CRTBasis.

    Cost = number of primes * lane cost of their family (uint32 = 1, uint64 =
    `u64_cost`, measured by transform_costs() when None); ties go to uint32.
    ValueError when no family has enough primes (bound above ~2**990).
    """
    if u64_cost is None:
        u64_cost = transform_costs()[1]
    return _cheapest_basis(bound, log2n, u64_cost)


@lru_cache(maxsize=256)
def _cheapest_basis(bound, log2n, u64_cost):
    best = None
    for dt in (U32, U64):
        primes = fewest_primes(bound, log2n, dt)
        if primes is None:
            continue
        cost = len(primes) * (1.0 if dt == U32 else u64_cost)
        if best is None or cost < best[0]:
            best = (cost, primes, dt)
    if best is None:
        raise ValueError(
            f"exact convolution needs a CRT product above 2**{bound.bit_length()}, more than "
            f"{MAX_PRIMES} NTT primes of {LANE_BITS[U64]} bits give (modulus too large)"
        )
    return crt_basis(best[1], best[2])


# ---------------------------------------------------------------- polymul routes

ROUTE_KINDS = ("linear", "cyclic", "negacyclic")


class Route(NamedTuple):
    """How a product is computed (see the module notes for the paths).

    length: the transform length (0 on the schoolbook paths); kind: the product the path
    computes, "linear" (transforms zero-padded to `length`) or "cyclic" / "negacyclic"
    (transforms of that kind, `length` = n); offset: added to every coefficient before the
    CRT reconstruction and removed after (it lifts negacyclic coefficients, which may be
    negative, into the primes' range); fold: "cyclic" / "negacyclic" when the linear
    product is folded modulo x^n -/+ 1 afterwards; unchecked: the route's kernels see
    every input value as they read it and report the largest, so its inputs may be
    unsigned views of the caller's arrays, unchecked (a value >= m sends the call back to
    the checked route: ntt_cy/_products.py, run_route)."""
    path: str
    basis: CRTBasis | None = None
    length: int = 0
    kind: str = "linear"
    offset: int = 0
    fold: str | None = None
    unchecked: bool = False


@lru_cache(maxsize=1024)
def product_route(R: int, na: int, nb: int, m: int, kind: str) -> Route:
    """The route of R products (kind "linear", "cyclic" or "negacyclic") of rows of
    lengths na, nb modulo m >= 1 (na == nb for cyclic and negacyclic).  ValueError when
    m >= 2**64 is too large for any CRT basis and the product for the schoolbook."""
    if m == 1:
        return Route("zero", kind=kind)
    if kind == "linear":
        return _linear_route(R, na, nb, m)
    return _wrapped_route(R, na, m, kind)


def _linear_route(R, na, nb, m):
    if m >= 1 << 64:
        return _object_route(R, na, nb, m)
    N = transform_length(na + nb - 1)
    log2n = N.bit_length() - 1
    padded = fits_padded_half(na, nb, N)
    if direct_prime(m, log2n):
        route = Route("direct", None, N, unchecked=padded)
        cost = transform_cost(R, N, lane_cost(m), 1, one_call=padded)
    else:
        # Every coefficient is a sum of min(na, nb) products of values in [0, m): it lies
        # in [0, min(na, nb) (m - 1)^2], so primes whose product exceeds that bound
        # determine it exactly.
        basis = choose_basis(min(na, nb) * (m - 1) ** 2, log2n)
        one_call = padded and basis.fused(m)
        route = Route("crt", basis, N, unchecked=one_call)
        cost = transform_cost(R, N, basis.k * lane_costs()[basis.dtype], basis.k, basis.dtype,
                              one_call=one_call, wide=basis.fused64(m))
    if schoolbook_cheaper(R, na, nb, m, cost):
        return Route("schoolbook", unchecked=True)   # (one max per operand checks it)
    return route


def _wrapped_route(R, n, m, kind):
    if m < 1 << 64 and n & (n - 1) == 0 and n > 1:
        negacyclic = kind == "negacyclic"
        log2 = n.bit_length() - 1 + negacyclic
        if direct_prime(m, log2):
            if wrapped_by_transforms(R, n, m, kind):
                # (the forward transforms read the rows and report their largest value)
                return Route("direct", None, n, kind, unchecked=True)
        else:
            # Cyclic: coefficients in [0, n (m-1)^2].  Negacyclic: in [-n (m-1)^2,
            # n (m-1)^2]; shifted by +n (m-1)^2 into [0, 2 n (m-1)^2].
            offset = n * (m - 1) ** 2 if negacyclic else 0
            basis = choose_basis(n * (m - 1) ** 2 + offset, log2)
            cost = transform_cost(R, n, basis.k * lane_costs()[basis.dtype], basis.k,
                                  basis.dtype)
            if not schoolbook_cheaper(R, n, n, m, cost):
                return Route("crt", basis, n, kind, offset=offset)
    return _linear_route(R, n, n, m)._replace(fold=kind, unchecked=False)


def wrapped_by_transforms(R, n, m, kind, one_call=False) -> bool:
    """Whether R cyclic / negacyclic products of length n mod m < 2**64 take transforms
    of length n mod m itself (m a prime with the roots, the schoolbook dearer);
    one_call: costed as one kernel call (the single-row products)."""
    if n < 2 or n & (n - 1) or not direct_prime(m, n.bit_length() - 1 + (kind == "negacyclic")):
        return False
    cost = transform_cost(R, n, lane_cost(m), 1, one_call=one_call)
    return not schoolbook_cheaper(R, n, n, m, cost)


def _object_route(R, na, nb, m):
    """m >= 2**64: the Python-int schoolbook or CRT on words (see the module notes)."""
    N = transform_length(na + nb - 1)
    log2n = N.bit_length() - 1
    bound = min(na, nb) * (m - 1) ** 2
    products = R * na * nb
    basis = None
    if products * m.bit_length() > OBJECT_SCHOOLBOOK_BITS:
        try:
            basis = choose_basis(bound, log2n)
        except ValueError:   # no 16 primes reach the bound: small products still can
            if products > OBJECT_SCHOOLBOOK_MAX:
                raise
    if basis is None:
        return Route("python_schoolbook")
    wide = wide32_basis(bound, log2n) if N >= WIDE32_MIN_LENGTH else None
    if wide is not None:   # digits and their reduction straight from the uint32 rows
        return Route("crt32_words", wide, N)
    return Route("crt_words", basis, N)


def single_row_route(na: int, nb: int, m: int, kind: str) -> Route | None:
    """The route of one row's product (lengths na, nb, mod m, kind) where one compiled
    call serves it (ntt_cy/_single_row.py), else None: transforms of length n mod a
    prime m for cyclic and negacyclic products where they are cheapest (costed as one
    call), else the linear product's route (folded for those kinds) if it is the
    schoolbook on one thread, a direct prime's padded product or the one-call CRT
    product; transforms of fewer than ROW_CALL_BELOW_N values (the call runs on the
    threads the caller resolves from PARALLEL_MIN_ELEMENTS values on)."""
    if not 2 <= m < 1 << 64 or na == 0 or nb == 0 or kind not in ROUTE_KINDS \
            or (kind != "linear" and na != nb):
        return None
    if kind != "linear" and na < ROW_CALL_BELOW_N \
            and wrapped_by_transforms(1, na, m, kind, one_call=True):
        return Route("direct", None, na, kind)
    N = transform_length(na + nb - 1)
    if N >= ROW_CALL_BELOW_N:
        return None
    route = product_route(1, na, nb, m, "linear")
    fold = None if kind == "linear" else kind
    if route.path == "schoolbook":
        return None if na * nb >= SCHOOL_PARALLEL_MIN else route._replace(fold=fold)
    if not fits_padded_half(na, nb, N):
        return None
    if route.path == "direct" or route.basis.fused(m):
        return route._replace(fold=fold)
    return None


def clear_caches() -> None:
    """Forget the cached routes (product_route, bigmul_scheme)."""
    product_route.cache_clear()
    _cheapest_scheme.cache_clear()


# ---------------------------------------------------------------- bigmul

class BigmulRoute(NamedTuple):
    """bigmul's product: w-byte limbs, the basis, and whether it is one kernel call."""
    limb_bytes: int
    basis: CRTBasis
    one_call: bool


def limb_count(bits: int, w: int) -> int:
    """w-byte limbs of a value of `bits` bits (at least one)."""
    return max(1, -(-bits // (8 * w)))


def bigmul_scheme(bits_a: int, bits_b: int):
    """(limb bytes, CRTBasis) with the least estimated transform work for operands of
    these sizes, or None: k primes x lane cost x N log2 N over LIMB_CHOICES on ~30-bit and
    ~62-bit primes whose product is below 2^127 (the carry pass works in two words)."""
    costs = lane_costs()
    return _cheapest_scheme(bits_a, bits_b, LIMB_CHOICES, costs[U32], costs[U64])


@lru_cache(maxsize=1024)   # (~50 us a choice: 7% of a 10^5-bit product)
def _cheapest_scheme(bits_a, bits_b, limb_choices, u32_cost, u64_cost):
    best = None
    costs = {U32: u32_cost, U64: u64_cost}
    for w in limb_choices:
        la, lb = limb_count(bits_a, w), limb_count(bits_b, w)
        N = transform_length(la + lb - 1)
        log2n = N.bit_length() - 1
        bound = min(la, lb) * ((1 << (8 * w)) - 1) ** 2
        for dt in (U32, U64):
            basis = basis_for(bound, log2n, dt)
            if basis is None or basis.product >= 1 << 127:
                continue
            cost = basis.k * costs[dt] * N * max(log2n, 1)
            if best is None or cost < best[0]:
                best = (cost, w, basis)
    return None if best is None else best[1:]


def bigmul_route(bits_a: int, bits_b: int, per_prime_min_bits: int = 0) -> BigmulRoute | None:
    """How operands of these sizes are multiplied through the NTT, or None (no scheme
    fits, or the product would take the per-prime route and the smaller operand has
    fewer than per_prime_min_bits bits: CPython is faster there).  One call: uint32
    primes and operands within padded_product's zero-padded half."""
    scheme = bigmul_scheme(bits_a, bits_b)
    if scheme is None:
        return None
    w, basis = scheme
    la, lb = limb_count(bits_a, w), limb_count(bits_b, w)
    one_call = basis.fused(1 << (8 * w)) and fits_padded_half(la, lb, transform_length(la + lb - 1))
    if not one_call and min(bits_a, bits_b) < per_prime_min_bits:
        return None
    return BigmulRoute(w, basis, one_call)
