"""polymul / convolve: exact polynomial products modulo any integer m >= 1.

Paths, chosen per call:
  schoolbook   small inputs (quadratic, nogil, ntt_cy/_kernels/schoolbook.pyx) when the cost
               model below says it beats the transforms;
  direct       m is a prime < 2**64 with 2-adicity >= log2(transform length): three
               transforms modulo m itself;
  CRT          any other m: the exact integer product through several NTT primes and
               Garner (ntt_cy/_crt.py), then reduced modulo m.  This covers composite
               and even moduli, powers of two, non-friendly primes (10**9+7, 10**18+9)
               and moduli >= 2**64 (Python ints, object output).
cyclic / negacyclic products of a power-of-two length the primes support use
transforms of that length (negacyclic with the psi twist); any other length is a
linear product wrapped modulo x^n - 1 / x^n + 1.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ntt_cy._support import checks as _checks
from ntt_cy._support.checks import check_backend
from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels.crt import residues as _residues
from ntt_cy._kernels import schoolbook as _schoolbook
from ntt_cy._kernels.crt import wide as _wide
from ntt_cy._support.aligned import aligned_empty
from ntt_cy._support.scratch import scratch
from ntt_cy._support.threads import (PARALLEL_MIN_ELEMENTS, check_workers, effective_threads,
                             requested_workers, resolve_workers)
from ntt_cy._crt import choose_basis, lane_costs, transform_costs, wide32_basis
from ntt_cy.plan import get_plan, modulus_constants
from ntt_cy.primes import is_prime, two_adicity

__all__ = ["polymul", "convolve"]

U32, U64, OBJ = np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(object)


def polymul(a, b, modulus, *, kind="linear", workers=None, backend="cpu"):
    """Product of polynomials a and b with coefficients modulo `modulus`.

    Parameters
    ----------
    a, b : array_like of integers
        Coefficients, lowest degree first.  1-D, or N-D batches multiplied row by
        row along the last axis (leading shapes broadcast as in numpy).  Any
        integer values (negative, above the modulus, Python ints of any size) are
        reduced modulo `modulus`; floats, bool arrays and empty inputs are rejected
        (a Python bool inside a list of ints is the int it equals, as in numpy).
        The inputs are never modified.
    modulus : int
        Any integer m >= 1: prime or not, below 2**64 or not.
    kind : {"linear", "cyclic", "negacyclic"}
        "linear": the full product, ``len(a) + len(b) - 1`` coefficients.
        "cyclic" / "negacyclic": the product modulo x^n - 1 / x^n + 1, n
        coefficients; a and b must have the same length n (any n >= 1).
    workers : int, optional
        Threads: a count from 1 to 1024, or None / -1 for all cores (scipy.fft's
        other negative counts, all cores but some, are refused: ValueError).
    backend : {"cpu", "cuda"}
        "cuda" runs on the GPU through ntt_cy.cuda (moduli < 2**64; numpy or device
        arrays in, numpy or device arrays out).

    Returns
    -------
    numpy.ndarray
        Coefficients in [0, m): dtype uint32 when m <= 2**32, uint64 when
        m < 2**64, and object (Python ints) for m >= 2**64.

    Every result is exact.  Moduli >= 2**64: small linear products (rows * len(a) *
    len(b) * m.bit_length() <= 2**16) by a Python-int schoolbook; the others through
    the same multi-prime CRT, the operands' residues and the coefficients mod m
    computed on 64-bit words in C, which needs the coefficient bound min(len a, len b)
    * (m - 1)**2 below ~2**990, sixteen 62-bit primes (above it: the schoolbook up to
    4096 products, else ValueError naming the bound).  Cyclic and negacyclic products
    of such moduli are linear ones, wrapped.
    """
    if check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return cuda.polymul(a, b, modulus, kind=kind)
    if type(modulus) is int and type(kind) is str:
        row_a = _checks.single_row_operand(a, PARALLEL_MIN_ELEMENTS)
        row_b = row_a if b is a else _checks.single_row_operand(b, PARALLEL_MIN_ELEMENTS)
        if row_a is not None and row_b is not None:
            out = _single_row(row_a, row_b, modulus, kind, workers)
            if out is not None:
                return out
            a, b = row_a, row_b   # (lists: read once; b is a still where it was)
    m = _checks.as_int(modulus, "modulus")
    if m < 1:
        raise ValueError(f"modulus must be >= 1, got {m}")
    _checks.check_poly_kind(kind)
    # Lists and tuples are read once, here, so that the unchecked route below takes them
    # as it takes integer arrays (values outside [0, m) still send it to the checked one).
    squaring = b is a
    if type(a) is list or type(a) is tuple:
        a = _checks.as_integer_array(a, "a")
    if squaring:
        b = a
    elif type(b) is list or type(b) is tuple:
        b = _checks.as_integer_array(b, "b")
    # None stays None (resolved by effective_threads where a product is large enough
    # for threads: the core count, os.sched_getaffinity, costs ~1 us a call)
    threads = None if workers is None else requested_workers(workers)
    if kind == "linear" and m < 1 << 64:
        # 32/64-bit integer arrays go in unchecked: on the direct and fused-CRT paths the
        # first transform stages see every value anyway and report the largest (see
        # _prime_product), the schoolbook takes one max per operand; any other path, or
        # a value outside [0, m), starts again with checked inputs.
        try:
            return _polymul(_as_unsigned(a, m, "a"), b if b is a else _as_unsigned(b, m, "b"),
                            a, m, kind, threads, checked=False)
        except _Unchecked:
            pass
    A = _as_residues(a, m, "a")
    B = A if b is a else _as_residues(b, m, "b")
    return _polymul(A, B, a, m, kind, threads, checked=True)


def _polymul(A, B, a, m, kind, threads, checked):
    # B is a: `b is a` in the call (squaring), A the converted a.
    if B is a:
        B = A
    na, nb = A.shape[-1], B.shape[-1]
    try:
        batch = () if A.ndim == B.ndim == 1 else np.broadcast_shapes(A.shape[:-1], B.shape[:-1])
    except ValueError:
        raise ValueError(f"batch shapes of a {A.shape[:-1]} and b {B.shape[:-1]} do not "
                         f"broadcast (the last axis holds the coefficients)") from None
    if kind != "linear" and na != nb:
        raise ValueError(f"kind={kind!r} needs a and b of the same length n, got {na} and {nb}")
    A2 = _rows(A, batch)
    B2 = A2 if B is A else _rows(B, batch)
    if A2.dtype != B2.dtype and A2.dtype != OBJ and B2.dtype != OBJ:
        # one unsigned width for both (uint32 rows widened), as the one-call kernels want
        A2, B2 = A2.astype(U64, copy=False), B2.astype(U64, copy=False)
    if kind == "linear":
        out = _linear(A2, B2, m, threads, checked)
    else:
        out = _wrapped(A2, B2, m, kind, threads)
    out = out.reshape(batch + out.shape[-1:])
    return out.astype(output_dtype(m), copy=False)


convolve = polymul


# ---------------------------------------------------------------- one small row
# A product of two 1-D integer arrays small enough for one thread (below
# PARALLEL_MIN_ELEMENTS whatever `workers` says) goes through a product prepared
# once per (len a, len b, m, kind): its route, plan and constants bound in a
# compiled object whose `product(a, b)` checks both arrays' headers, runs the whole
# route in one call and returns the result, or None for the general route below
# (other dtypes, strided arrays, values >= m).  The layers of the general route cost
# ~8 us for a linear product and ~25 us for a wrapped one, more than the arithmetic
# of any product below n ~ 100.  Cyclic and negacyclic products take transforms of
# length n where m is a prime that has them (and the cost model prefers them), else
# the linear product's route, folded (exact either way: the route changes only the
# time).
# Prepared products kept, the oldest dropped first: each holds its plan's tables (up to
# ~0.35 MB at N = 4096), as many as the plan cache (_plan) keeps.
_SINGLE_ROW_LIMIT = 128
_single_rows = {}
_WRAPS = {"linear": 0, "cyclic": 1, "negacyclic": 2}   # ntt_cy/_kernels/ntt/single_row.pxd's LINEAR, ...


def _single_row(a, b, m, kind, workers):
    """polymul(a, b, m, kind=kind, workers=workers) for 1-D ndarrays, an int m and a
    str kind, or None."""
    key = (a.shape[0], b.shape[0], m, kind)
    prepared = _single_rows.get(key, False)
    if prepared is False:
        if not 2 <= m < 1 << 64 or kind not in _WRAPS:
            return None   # (never cached: a huge modulus would be kept alive by its key)
        if len(_single_rows) >= _SINGLE_ROW_LIMIT:
            _single_rows.pop(next(iter(_single_rows), None), None)
        prepared = _single_rows[key] = _prepare_single_row(*key)
    if prepared is None:
        return None
    check_workers(workers)
    return prepared.product(a, b)


def clear_route_caches():
    """Forget the cached routes (linear_path) and the single-row products prepared
    from them: for code (tests, calibration) that changes the cost model."""
    linear_path.cache_clear()
    _single_rows.clear()


def _prepare_single_row(na, nb, m, kind="linear"):
    """The compiled product for one row of lengths na, nb mod m (see _single_row):
    _ntt.SingleRowWrapped (cyclic or negacyclic transforms of length n mod a prime m),
    or for the linear product (wrapped when kind asks) _schoolbook.SingleRowSchoolbook,
    _ntt.SingleRowProduct (direct prime) or _ntt.SingleRowCRT (one-call CRT product);
    None where the route is another."""
    wrap = _WRAPS.get(kind)
    if not 2 <= m < 1 << 64 or na == 0 or nb == 0 or wrap is None or (wrap and na != nb):
        return None
    if wrap and na < PARALLEL_MIN_ELEMENTS and _wrapped_by_transforms(1, na, m, kind, True):
        plan = _plan(na, m, None, kind)   # as _wrapped takes them
        return _ntt.SingleRowWrapped(plan.tables(plan.reduction))
    N = _next_pow2(na + nb - 1)
    if N >= PARALLEL_MIN_ELEMENTS:
        return None
    path, basis = linear_path(1, na, nb, m)
    if path == "schoolbook":
        if na * nb >= SCHOOL_PARALLEL_MIN:
            return None   # schoolbook() threads these
        c = _constants(m)
        return _schoolbook.SingleRowSchoolbook(na, nb, m, c["barrett_d"], c["barrett_v"],
                                               c["barrett_shift"], wrap)
    if not _padded_lengths(na, nb, N):
        return None
    if path == "direct":
        plan = _plan(N, m, None, "cyclic")
        return _ntt.SingleRowProduct(plan.tables(plan.reduction), na, nb, wrap)
    if basis.fused(m):
        return _ntt.SingleRowCRT(basis.fused_product32(N, m), na, nb, wrap)
    return None


def output_dtype(m: int) -> np.dtype:
    """uint32 for m <= 2**32, uint64 below 2**64, object (Python ints) above."""
    if m <= 1 << 32:
        return U32
    return U64 if m < 1 << 64 else OBJ


# ---------------------------------------------------------------- inputs

class _Unchecked(Exception):
    """Unchecked inputs reached a step that needs values in [0, m): start again."""


def _as_unsigned(x, m, name):
    """A 32/64-bit integer ndarray x as unsigned lanes of the same width (a view, no
    range check: the path taking it does one, see _linear, and _checks.unsigned_view
    for when that suffices); anything else raises _Unchecked, for the checked route."""
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "iu" or x.dtype.itemsize not in (4, 8):
        raise _Unchecked
    view = _checks.unsigned_view(_checks.as_integer_array(x, name), m)
    if view is None:
        raise _Unchecked
    return view


def _as_residues(x, m, name):
    """x mod m: unsigned lanes for m < 2**64 (uint64 for 64-bit inputs, so that
    values already in [0, m) are a view of x, not a copy; else uint32 when
    m <= 2**32), else an object array of Python ints."""
    if (m >= 1 << 64 and type(x) is np.ndarray and x.dtype == OBJ and x.ndim and x.size
            and _wide.exact_ints_below(x, m)):
        return x   # (residues already, nothing more to check; the products only read them)
    arr = _checks.as_integer_array(x, name)
    if m < 1 << 64:
        dt = U64 if m > 1 << 32 or arr.dtype.itemsize == 8 else U32
        return _checks.integers_to_lanes(arr, m, dt, name, "reduce")
    if arr.dtype.kind in "iu":   # 64-bit values: below m, unless negative
        out = arr.astype(object)   # (Python ints, ~10x sooner than int(v) % m each)
        if arr.dtype.kind == "i" and arr.min() < 0:
            out %= m
        return out
    out = np.empty(arr.shape, dtype=object)
    out.flat[:] = [int(v) % m for v in arr.flat]
    return out


def _rows(x, batch):
    """x broadcast to batch + (len,), as a C-contiguous 2-D array of rows."""
    n = x.shape[-1]
    full = x if x.shape[:-1] == batch else np.broadcast_to(x, batch + (n,))
    return np.ascontiguousarray(full).reshape(-1, n)


def _next_pow2(n):
    return 1 << (n - 1).bit_length()


def _direct_prime(m, log2n):
    """m itself serves as the transform prime for length 2**log2n."""
    return m < 1 << 64 and two_adicity(m) >= log2n and _is_prime(m)


@lru_cache(maxsize=256)
def _is_prime(m):
    return is_prime(m)


@lru_cache(maxsize=256)
def _constants(m):
    return modulus_constants(m, U64)


@lru_cache(maxsize=128)
def _plan(N, p, dtype, kind):
    # The primes reaching here are known to be valid: a cache on this side makes
    # the lookup one dict access.
    return get_plan(N, p, dtype=dtype, kind=kind)


# ---------------------------------------------------------------- cost model
# Schoolbook, ns per product and per output coefficient for each of its accumulations
# (_schoolbook.accumulation_name), fitted to single-thread timings of
# SingleRowSchoolbook.product (na x nb = 16 x 16 .. 256 x 256, 8 x 512, 32 x 1024) on
# Zen 3, 2026-11-25: one_word (m = 1000003) 0.20 + 6.0, split (10**9+7) 0.37 + 5.1,
# wide (2**61-1) 1.04 + 6.0 and (2**64-59, products summed one at a time) 1.07 + 10.8,
# besides ~0.25-0.33 us for the call.  (Before the 32-bit lanes and the 128-bit
# partial sums, every sum past one 64-bit word took 1.0 + 21.5.)
# Transforms: crt.transform_costs() measures the active kernels once per process
# (ns per element per stage of a uint32 transform, and the uint64/uint32 ratio);
# on top of that a fixed cost per prime, and for CRT reconstruction (Garner digits,
# then the reduction mod m) a fixed cost + per prime per output coefficient 4 ns
# (~30-bit primes, _garner32) or 12 ns (~62-bit primes, _crt); 0.5 ns for the fused
# reconstruction straight from the primes' rows (m < 2^32), 2 ns for its 128-bit
# form (2^32 <= m < 2^64).  The fixed costs are 10 us per prime and 15 us for the
# general route; when the whole product is one call (padded_product for a direct
# prime, CRTBasis.fused_product32 for small-prime CRT), 0.1 us per prime and nothing
# more (the call itself costs about what the schoolbook's costs).
# Measured on Zen 3 (AVX2), 2026-11-25, na = nb = n, one row, one thread: polymul with
# each path forced (single-row routes, ~1.2 us of call in each), schoolbook /
# transforms in us, and the path the model picks:
#   m = 998244353 (direct):              n = 16 1.71 / 2.12, 24 1.84 / 1.76: transforms
#                                        from 24
#   m = 10**9+7, 2**32-5 (three primes): n = 48 2.86 / 3.54, 64 3.75 / 3.59: from 64
#   m = 1000003 (one-word sums):         n = 48 2.51 / 2.88, 64 3.18 / 2.96: from 64
#   m = 2**32 (128-bit reconstruction):  n = 96 6.03 / 5.91, 128 8.90 / 6.22: from 128
#   m = 2**61-1, 2**64-59 (five primes): n = 48 4.07 / 5.80, 64 6.15 / 6.19: from 64
# (Before the 32-bit lanes: 10**9+7 and 2**32-5 from n = 24, 2**32 from 32, 2**61-1
# and 2**64-1 from ~48.
# AVX-512 build, before the one-call CRT products: 998244353 from n = 32, 10**9+7
# and 2**32-5 n ~ 100, 2**32 n ~ 300, 2**64-1 n ~ 450.)
# Unbalanced products (na << nb) stay on the schoolbook longer, as they should.

# (wide: every modulus costed at the chunk-1 figure per output, the dearer one)
SCHOOL_NS = {"one_word": (0.2, 6.0), "split": (0.37, 5.1), "wide": (1.05, 11.0)}
# One thread below this many schoolbook products: the fork/join would cost more than it saves.
SCHOOL_PARALLEL_MIN = 1 << 20
PRIME_NS, CRT_NS = 10000.0, 15000.0
# The same fixed costs when the whole product is one call (see above and _crt_product).
PRIME_NS_ONE_CALL, CRT_NS_ONE_CALL = 100.0, 0.0
# Batches of short rows: ~150 ns per row and prime of fixed kernel work, and below
# N = 64 the transforms run the scalar code, ~10x the calibrated vector cost per
# element and stage (R = 1000 rows, 998244353: N = 8 247 us, N = 16 405 us, N = 32
# 582 us, N = 64 250 us; schoolbook up to n = 16 faster).
ROW_NS, SCALAR_BELOW, SCALAR_FACTOR = 150.0, 64, 10.0
CRT_COEFF_NS = {U32: 4.0, U64: 12.0}
CRT_COEFF_NS_FUSED, CRT_COEFF_NS_FUSED64 = 0.5, 2.0


def _schoolbook_cheaper(R, na, nb, m, transform_ns):
    """Whether R schoolbook products of lengths na, nb mod m beat `transform_ns`."""
    per_product, per_out = SCHOOL_NS[_schoolbook.accumulation_name(m, min(na, nb))]
    return R * (na * nb * per_product + (na + nb - 1) * per_out) < transform_ns


def _transform_cost(R, N, k_weighted, k, crt=None, one_call=False, wide=False):
    """Estimated ns for k primes (k_weighted: k times their lane cost) at length N,
    plus the CRT reconstruction of ~N output coefficients when crt is a basis dtype.
    one_call: each prime's product is one padded_product call (and for CRT, the
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


def _lane_cost(p):
    return lane_costs()[U32 if p < 1 << 30 else U64]


# ---------------------------------------------------------------- products

@lru_cache(maxsize=1024)
def linear_path(R, na, nb, m):
    """How a linear product of R rows of lengths na, nb mod m < 2**64 is computed:
    ("schoolbook", None), ("direct", None) or ("crt", CRTBasis)."""
    N = _next_pow2(na + nb - 1)
    log2n = N.bit_length() - 1
    padded = _padded_lengths(na, nb, N)
    if _direct_prime(m, log2n):
        path, basis = "direct", None
        cost = _transform_cost(R, N, _lane_cost(m), 1, one_call=padded)
    else:
        # Every coefficient is a sum of min(na, nb) products of values in [0, m):
        # it lies in [0, min(na, nb) (m - 1)^2], so primes whose product exceeds
        # that bound determine it exactly.
        path, basis = "crt", choose_basis(min(na, nb) * (m - 1) ** 2, log2n)
        cost = _transform_cost(R, N, basis.k * lane_costs()[basis.dtype], basis.k, basis.dtype,
                               one_call=padded and basis.fused(m), wide=basis.fused64(m))
    if _schoolbook_cheaper(R, na, nb, m, cost):
        return "schoolbook", None
    return path, basis


def _linear(A2, B2, m, threads, checked=True):
    """checked=False: A2, B2 may hold values >= m (unsigned views of the caller's
    arrays): the schoolbook, direct and fused-CRT (basis.fused32, and basis.fused
    products of one call) paths take them
    and raise _Unchecked if they see one; other paths raise it at once."""
    R, na = A2.shape
    nb = B2.shape[1]
    L = na + nb - 1
    if m == 1:
        return np.zeros((R, L), dtype=U64)
    if m >= 1 << 64:
        return _linear_object(A2, B2, m, threads)
    path, basis = linear_path(R, na, nb, m)
    if not checked:
        if path == "schoolbook":
            # small: one max per operand here beats starting again on the checked route
            if int(A2.max()) >= m or (B2 is not A2 and int(B2.max()) >= m):
                raise _Unchecked
        elif not (path == "direct" or path == "crt" and basis.fused(m)):
            raise _Unchecked
    if path == "schoolbook":
        return schoolbook(A2, B2, m, threads)
    N = _next_pow2(L)
    if path == "direct":
        res = _prime_product(A2, B2, m, None, N, "cyclic", threads, reduce=False,
                             checked=checked)
        return np.ascontiguousarray(res[:, :L])
    out = _crt_product(A2, B2, m, basis, N, "cyclic", L, threads, checked=checked)
    return out.reshape(R, L)


def _wrapped(A2, B2, m, kind, threads):
    R, n = A2.shape
    if m == 1:
        return np.zeros((R, n), dtype=U64)
    neg = kind == "negacyclic"
    if m < 1 << 64 and n & (n - 1) == 0 and n > 1:
        log2 = n.bit_length() - 1 + neg
        if _direct_prime(m, log2):
            if _wrapped_by_transforms(R, n, m, kind):
                return _prime_product(A2, B2, m, None, n, kind, threads, reduce=False)
        else:
            # Cyclic: coefficients in [0, n (m-1)^2].  Negacyclic: in
            # [-n (m-1)^2, n (m-1)^2]; shifted by +n (m-1)^2 into [0, 2 n (m-1)^2].
            offset = n * (m - 1) ** 2 if neg else 0
            basis = choose_basis(n * (m - 1) ** 2 + offset, log2)
            k_weighted = basis.k * lane_costs()[basis.dtype]
            cost = _transform_cost(R, n, k_weighted, basis.k, basis.dtype)
            if not _schoolbook_cheaper(R, n, n, m, cost):
                out = _crt_product(A2, B2, m, basis, n, kind, n, threads, offset)
                return out.reshape(R, n)
    return wrap(_linear(A2, B2, m, threads), n, m, neg)


def _wrapped_by_transforms(R, n, m, kind, one_call=False):
    """Whether R cyclic / negacyclic products of length n mod m < 2**64 take transforms
    of length n mod m itself (m a prime with the roots, the schoolbook dearer);
    one_call: costed as one kernel call (the single-row route)."""
    if n < 2 or n & (n - 1) or not _direct_prime(m, n.bit_length() - 1 + (kind == "negacyclic")):
        return False
    cost = _transform_cost(R, n, _lane_cost(m), 1, one_call=one_call)
    return not _schoolbook_cheaper(R, n, n, m, cost)


def wrap(lin, n, m, negacyclic):
    """Reduce linear products (R, 2n-1), values in [0, m), modulo x^n -/+ 1."""
    out = lin[:, :n].copy()
    tail = lin[:, n:]
    head = out[:, : tail.shape[1]]
    if out.dtype == OBJ:
        head[...] = (head - tail if negacyclic else head + tail) % m
    elif negacyclic:
        head[...] = _sub_mod(head, tail, m)
    else:
        head[...] = _add_mod(head, tail, m)
    return out


def _add_mod(x, y, m):
    # x, y in [0, m), m < 2^64: x + y may wrap past 2^64; either way s - m is right.
    s = x + y
    return np.where((s < x) | (s >= np.uint64(m)), s - np.uint64(m), s)


def _sub_mod(x, y, m):
    d = x - y
    return np.where(x < y, d + np.uint64(m), d)


def _prime_product(A2, B2, p, dtype, N, kind, threads, reduce, out=None, checked=True,
                   bound=None, work=None):
    """Cyclic (negacyclic) convolution of the zero-padded rows mod the prime p, as a
    (R, N) array of p's lane dtype: `out` when given (e.g. a scratch buffer), else a
    fresh array; reduce=False when A2, B2 < p already.  bound (default p): A2, B2
    hold values below it (checked=True), or may hold values >= bound, which raises
    _Unchecked (checked=False; seen by the first transform stages, no pass of their
    own).  work: an (R, N) buffer of the lane dtype for the second operand (default:
    a scratch buffer)."""
    plan = _plan(N, p, dtype, kind)
    R = A2.shape[0]
    t = effective_threads(threads, R * N)
    tables = plan.tables(plan.reduction)
    if work is None:
        work = scratch("operand", (R, N), plan.dtype)
    if kind == "cyclic" and _padded_fits(A2, B2, N) and (not reduce or _reduce_on_load(plan)):
        # both zero-padded transforms and the product in one kernel call (n^-1 folded
        # into the product: the inverse skips its scaling; values reduced as read)
        dst = aligned_empty((R, N), plan.dtype) if out is None else out
        largest = _ntt.padded_product(A2, B2, dst, work, tables, t, pow(N, -1, p), reduce)
        if not checked and largest >= (p if bound is None else bound):
            raise _Unchecked
        return dst
    fa = _transformed(A2, plan, N, kind, reduce, t, out, checked, bound)
    if B2 is A2:
        fb = fa
    else:
        fb = _transformed(B2, plan, N, kind, reduce, t, work, checked, bound)
    # The pointwise product is taken inside the inverse, block by block.  Cyclic: n^-1
    # folded into it, so the inverse skips its scaling.
    if kind == "cyclic":
        _ntt.pointwise_inverse(fa, fb, tables, t, pow(N, -1, p), False)
    else:
        _ntt.pointwise_inverse(fa, fb, tables, t, 1, True)
    return fa


def _transformed(X2, plan, N, kind, reduce, threads, dst=None, checked=True, bound=None):
    """Forward transform (bit-reversed) of the rows X2 (mod p when reduce) zero-padded
    to N columns, into dst (R, N) or a fresh array.  checked=False: X2 may hold values
    >= bound (default p), which raises _Unchecked (seen by the first stages, no pass
    of its own)."""
    if dst is None:
        dst = aligned_empty((X2.shape[0], N), plan.dtype)
    if not reduce and kind == "cyclic" and N >= 8 and 2 * X2.shape[1] <= N:
        # the zero half is never written: the first stages read X2 directly
        largest = _ntt.forward_padded(X2, dst, plan.tables(plan.reduction), threads,
                                      plan.dtype != U32)
        if not checked and largest >= (plan.p if bound is None else bound):
            raise _Unchecked
    elif not checked:
        raise _Unchecked
    else:
        _load(X2, plan, N, reduce, threads, dst)
        _forward(plan, dst, threads)
    return dst


def _load(X2, plan, N, reduce, threads, dst=None):
    """X2 (mod p when reduce) zero-padded to N columns, into dst (R, N) or a fresh array."""
    c = plan._modulus
    if dst is None:
        dst = aligned_empty((X2.shape[0], N), plan.dtype)
    _residues.reduce_pad(X2, dst, plan.p, c["barrett_d"], c["barrett_v"], c["barrett_shift"],
                         reduce, threads)
    return dst


# The transforms run on arrays built here, values known to lie in [0, p): the
# kernels the plans dispatch to (ntt_cy._kernels.active) are called directly, in place,
# bit-reversed order between forward and inverse; this skips plan.forward's
# validation passes (~10 us a call, most of a small product's time).
def _forward(plan, x, threads):
    # uint32 lanes: the LAZY family's [0, 2p) outputs go to the pointwise product as they are
    _ntt.forward(x, x, plan.tables(plan.reduction), threads, False, plan.dtype != U32)


def _padded_fits(A2, B2, N):
    """Whether _ntt.padded_product takes these rows for length-N transforms."""
    return _padded_lengths(A2.shape[1], B2.shape[1], N) and A2.dtype == B2.dtype


def _padded_lengths(na, nb, N):
    """Whether rows of lengths na, nb fit padded_product's zero-padded half of N."""
    return N >= 8 and 2 * max(na, nb) <= N


def _reduce_on_load(plan):
    """Whether padded_product can reduce rows mod the plan's prime as it reads them:
    uint32 lanes and p < 2^31 (uint32 or uint64 rows, any values)."""
    return plan.dtype == U32 and plan.p < 1 << 31


def _crt_product(A2, B2, m, basis, N, kind, L, threads, offset=0, checked=True):
    """Exact convolution (first L coefficients of each row) via the primes of
    `basis`, reduced mod m < 2**64: an (R, L) array (uint32 when the fused
    reconstruction serves m, else uint64).  `offset` is added to every
    coefficient before reconstruction and removed after.  checked=False (when
    basis.fused32(m), or basis.fused(m) and the product is one call): A2, B2 may
    hold values >= m, which raises _Unchecked (any other route raises it at once)."""
    R = A2.shape[0]
    one_call = basis.fused(m) and kind == "cyclic" and _padded_fits(A2, B2, N)
    if not checked and not (basis.fused32(m) or one_call):
        raise _Unchecked
    if basis.fused(m):   # rebuilt from the primes' uint32 rows
        products = scratch("crt", (basis.k, R, N), basis.dtype)
        work = scratch("operand", (R, N), basis.dtype)
        t = effective_threads(threads, R * N)
        out = np.empty((R, L), dtype=U32 if basis.fused32(m) else U64)
        if one_call:
            # all of it one kernel call (values read mod each prime as they load)
            if basis.fused_product32(N, m, offset).run(A2, B2, products, work, out, t) >= m:
                raise _Unchecked   # (checked inputs are below m)
            return out
        for j, p in enumerate(basis.primes):
            _prime_product(A2, B2, p, basis.dtype, N, kind, t, reduce=m > p, out=products[j],
                           checked=checked, bound=m, work=work)
        return basis.reduce_products(products, m, offset, out, effective_threads(threads, R * L))
    residues = crt_residues(A2, B2, basis, N, kind, L, threads, bound=m, offset=offset)
    t = effective_threads(threads, residues.size)
    digits = basis.digits(residues, t, out=residues)
    out = basis.reduce(digits, m, t)
    if offset:
        out = _sub_mod(out, np.uint64(offset % m), m)
    return out.reshape(R, L)


def crt_residues(A2, B2, basis, N, kind, L, threads, bound=None, offset=0):
    """(k, R * L) uint64: the first L coefficients of each row's convolution modulo
    every prime of `basis` (+ offset).  A2, B2: uint64 rows with values < bound
    (None: any); reduced per prime as needed.  (Object rows, moduli >= 2^64, take
    _object_products.)"""
    R = A2.shape[0]
    residues = np.empty((basis.k, R * L), dtype=U64)
    work = scratch("product", (R, N), basis.dtype)

    def one_prime(j, p, t):
        reduce = bound is None or bound > p
        res = _prime_product(A2, B2, p, basis.dtype, N, kind, t, reduce=reduce, out=work,
                             bound=bound)
        row = residues[j].reshape(R, L)
        row[...] = res[:, :L]
        if offset:
            row[...] = _add_mod(row, np.uint64(offset % p), p)

    # One prime after the other, each transform using the OpenMP threads inside the
    # kernels.  Measured on a quiet 2-core machine (README, "Speed"), this beat one
    # Python thread per prime at every size: bigmul 10^6 bits 3.0 vs 3.4 ms, polymul
    # 10**9+7 n = 2^17 7.2 vs 8.0 ms, n = 2^14 0.94 vs 1.2 ms.
    t = effective_threads(threads, R * N)
    for j, p in enumerate(basis.primes):
        one_prime(j, p, t)
    return residues


# The Python-int schoolbook below R na nb log2(m) of this (one thread, Zen 3 VM, against
# the transforms: m of 65 bits 32 x 32 0.14 vs 0.18 ms, 64 x 64 0.57 vs 0.16; 127 bits
# 24 x 24 0.12 vs 0.18, 32 x 32 0.21 vs 0.17; 254 bits 16 x 16 0.11 vs 0.26, 32 x 32
# 0.41 vs 0.21), and up to OBJECT_SCHOOLBOOK_MAX products where no CRT basis reaches
# the bound (m of thousands of bits).
OBJECT_SCHOOLBOOK_BITS = 1 << 16
OBJECT_SCHOOLBOOK_MAX = 4096


def _linear_object(A2, B2, m, threads):
    """Linear products for m >= 2**64 (object arrays of Python ints in [0, m))."""
    R, na = A2.shape
    nb = B2.shape[1]
    L = na + nb - 1
    N = _next_pow2(L)
    products = R * na * nb
    basis = None
    if products * m.bit_length() > OBJECT_SCHOOLBOOK_BITS:
        try:
            basis = choose_basis(min(na, nb) * (m - 1) ** 2, N.bit_length() - 1)
        except ValueError:   # no 16 primes reach the bound: small products still can
            if products > OBJECT_SCHOOLBOOK_MAX:
                raise
    if basis is None:   # Python-int schoolbook
        out = np.empty((R, L), dtype=object)
        for r in range(R):
            out[r] = np.convolve(A2[r], B2[r]) % m
        return out
    wide = wide32_basis(min(na, nb) * (m - 1) ** 2, N.bit_length() - 1) \
        if N >= WIDE32_MIN_LENGTH else None
    if wide is not None:   # digits and their reduction straight from the uint32 rows
        products = _object_products(A2, B2, m, wide, N, threads)
        t = effective_threads(threads, wide.k * R * L)
        return wide.reduce_products_ints(products, L, m, t).reshape(R, L)
    products = _object_products(A2, B2, m, basis, N, threads)
    residues = np.empty((basis.k, R * L), dtype=U64)
    np.copyto(residues.reshape(basis.k, R, L), products[:, :, :L])
    t = effective_threads(threads, residues.size)
    digits = basis.digits(residues, t, out=residues)
    return basis.reduce_ints(digits, m, t).reshape(R, L)


# From this transform length on, moduli of several words take uint32 primes (about
# twice as many: 18 for a 254-bit m) instead of 62-bit ones.  One thread, Zen 3 VM,
# best of three alternated runs, 62-bit / 30-bit primes: BN254 n = 128 (length 256)
# 1.16-1.27x, n = 2^14 1.41x; 2^127 - 1 n = 128 1.14-1.95x; at n = 32-64 within
# 0.8-1.3x either way (the digits' k^2 products against the faster transforms).
WIDE32_MIN_LENGTH = 1 << 8


def _object_products(A2, B2, m, basis, N, threads):
    """_linear_object's products: the rows' residues mod every prime of `basis`, then
    every prime's cyclic product of length N, as a (k, R, N) scratch array of the
    basis' lanes: one call where both rows fit the zero-padded half of N, else one
    _prime_product a prime (a long row against a short one)."""
    R = A2.shape[0]
    t = effective_threads(threads, A2.size * basis.k)
    residues_a = basis.residues_of_ints(A2, m, t,
                                        out=scratch("input_a", (basis.k, A2.size), U64))
    residues_b = residues_a if B2 is A2 else basis.residues_of_ints(
        B2, m, t, out=scratch("input_b", (basis.k, B2.size), U64))
    products = scratch("crt", (basis.k, R, N), basis.dtype)
    work = scratch("operand", (R, N), basis.dtype)
    t = effective_threads(threads, R * N)
    if _padded_lengths(A2.shape[1], B2.shape[1], N):
        basis.padded_products(N).run(residues_a, residues_b, products, work, t)
    else:
        for j, p in enumerate(basis.primes):
            _prime_product(residues_a[j], residues_b[j], p, basis.dtype, N, "cyclic", t,
                           reduce=False, out=products[j], work=work)
    return products


def schoolbook(A2, B2, m, threads=1):
    """Quadratic linear convolution of rows mod m < 2**64 (uint32/uint64 in [0, m)),
    as uint64.  threads: a count, or None for all cores."""
    R, na = A2.shape
    nb = B2.shape[1]
    out = np.empty((R, na + nb - 1), dtype=U64)
    if m == 1:
        out[...] = 0
        return out
    lanes = U32 if _schoolbook.lane_bytes(m) == 4 else U64
    rb = np.ascontiguousarray(B2[:, ::-1], dtype=lanes)
    A2 = np.ascontiguousarray(A2, dtype=lanes)
    t = resolve_workers(threads) if R * na * nb >= SCHOOL_PARALLEL_MIN else 1
    c = _constants(m)
    _schoolbook.linear_mod(A2, rb, out, m, c["barrett_d"], c["barrett_v"], c["barrett_shift"], t)
    return out
