"""The product paths: rows in, products out, along the route ntt_cy/_routing.py chose.

polymul (ntt_cy/poly.py) hands run_route C-contiguous 2-D rows of one dtype: unsigned
lanes with values in [0, m) for m < 2**64, or object arrays of Python ints in [0, m).
On routes whose kernels see every value as they read it and report the largest
(Route.unchecked: the schoolbook, which takes one max per operand, and the one-call
direct and CRT products) the rows may instead be unchecked unsigned views of the
caller's arrays: run_route(..., checked=False) then returns None when a value is >= m,
and the caller runs it again on residues.  bigmul (ntt_cy/bigint.py) takes the
per-prime residues (crt_residues).

The transforms run on arrays built here, with values known to lie in [0, p): the
kernels the plans dispatch to (ntt_cy._kernels.active) are called directly, in place,
bit-reversed order between forward and inverse; this skips NTTPlan.forward's validation
passes (~10 us a call, most of a small product's time).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels import schoolbook as _schoolbook
from ntt_cy._kernels.crt import residues as _residues
from ntt_cy._routing import (SCHOOL_NS, SCHOOL_PARALLEL_MIN, fits_padded_half, lane_cost,
                             lane_costs, transform_cost)
from ntt_cy._support.aligned import aligned_empty
from ntt_cy._support.checks import lane_dtype
from ntt_cy._support.pieces import piece_rows, piece_starts
from ntt_cy._support.scratch import LIMIT_BYTES as SCRATCH_LIMIT_BYTES, scratch
from ntt_cy._support.threads import effective_threads, resolve_workers
from ntt_cy.plan import get_plan, modulus_constants

if TYPE_CHECKING:
    import numpy.typing as npt

    from ntt_cy._crt import CRTBasis
    from ntt_cy._routing import Route

__all__ = ["run_route", "result_dtype", "row_ns", "peak_bytes", "prime_product", "crt_product", "crt_residues", "object_products",
           "schoolbook", "wrap", "plan_for", "barrett_constants"]

U32, U64, OBJ = np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(object)
# Batches of fewer values (R (na + nb)) are one piece without estimating their time: well
# within two pieces (_support/pieces.py) on every kernel build.
PIECES_FROM = 1 << 16


@overload
def run_route(route: Route, A2: npt.NDArray[Any], B2: npt.NDArray[Any], m: int,
              threads: int | None, checked: Literal[True] = ...,
              out: npt.NDArray[Any] | None = ...) -> npt.NDArray[Any]: ...
@overload
def run_route(route: Route, A2: npt.NDArray[Any], B2: npt.NDArray[Any], m: int,
              threads: int | None, checked: bool,
              out: npt.NDArray[Any] | None = ...) -> npt.NDArray[Any] | None: ...
def run_route(route: Route, A2: npt.NDArray[Any], B2: npt.NDArray[Any], m: int,
              threads: int | None, checked: bool = True,
              out: npt.NDArray[Any] | None = None) -> npt.NDArray[Any] | None:
    """The products of the rows A2 (R, na) and B2 (R, nb) mod m along `route`
    (_routing.product_route(R, na, nb, m, kind)), as an (R, L) array: L = na + nb - 1
    for linear products, n for cyclic and negacyclic ones; uint32, uint64 or object.
    threads: a count, or None for get_workers().  checked=False (route.unchecked only): A2,
    B2 may hold values >= m, and the result is None when one does.  A long batch runs
    in pieces of rows (ntt_cy/_support/pieces.py: Ctrl-C is answered between them).
    out: a C-contiguous (R, L) array of result_dtype(route, m) (not None), sharing no
    memory with the rows, that the products are written into and which is returned (a
    None result may leave it partly written)."""
    R = A2.shape[0]
    step = _piece_rows(route, R, A2, B2, m, threads)
    if step == R:
        return _run_rows(route, A2, B2, m, threads, checked, out)
    # the pieces write into the result where its dtype is known beforehand (no copy)
    dtype = result_dtype(route, m)
    width = A2.shape[1] + B2.shape[1] - 1 if route.kind == "linear" else A2.shape[1]
    if out is None and dtype is not None:
        out = aligned_empty((R, width), dtype)
    for start, stop in piece_starts(R, step):
        piece = A2[start:stop]
        dest = None if out is None else out[start:stop]
        part = _run_rows(route, piece, piece if B2 is A2 else B2[start:stop], m, threads,
                         checked, dest)
        if part is None:
            return None
        if out is None:
            out = np.empty((R,) + part.shape[1:], dtype=part.dtype)
        if part is not dest:
            out[start:stop] = part
    return out


def result_dtype(route: Route, m: int) -> np.dtype[Any] | None:
    """The dtype of run_route's result along `route` where _run_rows can write it into
    a given array (the direct and fused CRT paths, unfolded), else None."""
    if route.fold is not None:
        return None
    if route.path == "direct":
        return lane_dtype(m)
    if route.path == "crt" and route.basis.fused(m):
        return U32 if route.basis.fused32(m) else U64
    return None


def _piece_rows(route: Route, R: int, A2: npt.NDArray[Any], B2: npt.NDArray[Any], m: int,
                threads: int | None) -> int:
    """Rows per piece of R products along `route` (piece_rows: about PIECE_NS of work,
    the temporaries within the scratch buffers; all of them below PIECES_FROM values,
    without estimating)."""
    na, nb = A2.shape[1], B2.shape[1]
    if R < 2 or R * (na + nb) < PIECES_FROM:
        return R
    row_bytes = math.gcd(na * A2.dtype.itemsize, nb * B2.dtype.itemsize)
    return piece_rows(R, row_ns(route, na, nb, m), resolve_workers(threads), row_bytes,
                      scratch_row_bytes(route, m))


def scratch_row_bytes(route: Route, m: int) -> int:
    """The bytes one row of products along `route` takes in the largest of its scratch
    buffers (0: a route without them): the transform rows, one per CRT prime."""
    if route.length == 0:
        return 0
    if route.basis is None:
        return route.length * lane_dtype(m).itemsize
    return route.basis.k * route.length * route.basis.dtype.itemsize


def row_ns(route: Route, na: int, nb: int, m: int) -> float:
    """The cost model's estimate (ns) of one more row of products along `route`; 0 for
    the routes that need no pieces (the zero product, the Python-int schoolbook, which
    runs row by row in Python)."""
    if route.path == "schoolbook":
        per_product, per_out = SCHOOL_NS[_schoolbook.accumulation_name(m, min(na, nb))]
        return na * nb * per_product + (na + nb - 1) * per_out
    if route.path in ("zero", "python_schoolbook"):
        return 0.0
    if route.basis is None:
        k, weighted, crt = 1, lane_cost(m), None
    else:
        k, crt = route.basis.k, route.basis.dtype
        weighted = k * lane_costs()[crt]
    return (transform_cost(2, route.length, weighted, k, crt)
            - transform_cost(1, route.length, weighted, k, crt))


def _run_rows(route: Route, A2: npt.NDArray[Any], B2: npt.NDArray[Any], m: int,
              threads: int | None, checked: bool,
              dest: npt.NDArray[Any] | None = None) -> npt.NDArray[Any] | None:
    """run_route in one piece.  dest: a C-contiguous (R, L) array of
    result_dtype(route, m) the result is written into (then returned)."""
    path, N = route.path, route.length
    R, na = A2.shape
    if route.kind == "linear":
        L = na + B2.shape[1] - 1
        kind = "cyclic"   # (the transforms' kind: zero-padded to N >= L)
    else:
        L, kind = na, route.kind
    if path == "direct":
        if not checked and not route.unchecked:
            raise AssertionError("internal: unchecked rows on a product that does not check them")
        # Rows of transforms longer than the result (linear products) whose first L
        # columns are copied into the result: in a scratch buffer where one is kept (a
        # fresh (R, N) temporary each call faults its pages in again once glibc has
        # trimmed the heap).  One row is the result as it is (a view of a fresh array,
        # no copy).  dest: the transform rows themselves where they are the result and
        # dest is 64-byte aligned (a caller's misaligned `out` would make every sweep's
        # vectors straddle cache lines: 10-20% slower than a copy), else the array the
        # result is copied into.
        lanes = lane_dtype(m)
        aligned = (dest is not None and dest.ctypes.data % 64 == 0
                   and N * lanes.itemsize % 64 == 0)
        reused = (N != L or (dest is not None and not aligned)) and R > 1 \
            and R * N * lanes.itemsize <= SCRATCH_LIMIT_BYTES
        rows = scratch("direct_product", (R, N), lanes) if reused else None
        if N == L and route.fold is None and aligned:
            rows = dest
        out = prime_product(A2, B2, m, None, N, kind, threads, False, rows, checked)
        if out is None:
            return None
        if dest is not None and route.fold is None and out is not dest:
            np.copyto(dest, out[:, :L])
            out = dest
        elif N != L:   # (ascontiguousarray gives a view of one row: never of scratch)
            out = out[:, :L].copy() if reused else np.ascontiguousarray(out[:, :L])
    elif path == "crt":
        out = crt_product(A2, B2, m, route.basis, N, kind, L, threads, route.offset, checked,
                          None if route.fold is not None else dest)
        if out is None:
            return None
    elif path == "schoolbook":
        # small: one max per operand here beats the checked route's conversion
        if not checked and (int(A2.max()) >= m or (B2 is not A2 and int(B2.max()) >= m)):
            return None
        out = schoolbook(A2, B2, m, threads)
    elif path == "zero":
        return np.zeros((R, L), dtype=U64)
    elif path == "python_schoolbook":
        out = np.empty((R, L), dtype=object)
        for r in range(R):
            out[r] = np.convolve(A2[r], B2[r]) % m
    elif path == "crt32_words":   # digits and their reduction straight from the uint32 rows
        basis = route.basis
        products = object_products(A2, B2, m, basis, N, threads)
        t = effective_threads(threads, basis.k * R * L)
        out = basis.reduce_products_ints(products, L, m, t).reshape(R, L)
    else:   # crt_words
        basis = route.basis
        products = object_products(A2, B2, m, basis, N, threads)
        residues = np.empty((basis.k, R * L), dtype=U64)
        np.copyto(residues.reshape(basis.k, R, L), products[:, :, :L])
        t = effective_threads(threads, residues.size)
        digits = basis.digits(residues, t, out=residues)
        out = basis.reduce_ints(digits, m, t).reshape(R, L)
    if route.fold is not None:
        out = wrap(out, na, m, route.fold == "negacyclic")
    return out


def peak_bytes(route: Route, R: int, na: int, nb: int, m: int) -> int:
    """An estimate of the peak memory (bytes) of R products of rows of lengths na, nb
    mod m along `route`, for ntt_cy._support.memory.check_memory: the operands' rows as
    the route reads them, its transform rows (the result, the second operand and one
    row per CRT prime), the residues and digits of the CRT reconstruction, the twiddle
    tables, and the result with its copy; Python ints of m's size on the object
    routes."""
    L = na + nb - 1
    words = 8 * (R * (na + nb) + 2 * R * L)   # operands' rows, the result and its copy
    if route.path in ("zero", "schoolbook"):
        return words
    if route.path == "python_schoolbook":
        return words + R * L * 2 * (m.bit_length() // 8 + 32)
    k = 1 if route.basis is None else route.basis.k
    N = route.length
    need = words + 8 * (R * N * (k + 2) + 2 * k * R * L + 6 * k * N)
    if route.path in ("crt_words", "crt32_words"):
        need += 8 * k * R * (na + nb) + R * L * (m.bit_length() // 8 + 32)
    return need


# ---------------------------------------------------------------- caches

@lru_cache(maxsize=128)
def plan_for(N, p, dtype, kind):
    """get_plan(N, p, dtype=dtype, kind=kind) for primes known to be valid: a cache on
    this side makes the lookup one dict access."""
    return get_plan(N, p, dtype=dtype, kind=kind)


@lru_cache(maxsize=256)
def barrett_constants(m):
    """m's barrett_mul64 constants (d, v, shift), 2 <= m < 2**64."""
    c = modulus_constants(m, U64)
    return c["barrett_d"], c["barrett_v"], c["barrett_shift"]


# ---------------------------------------------------------------- one prime

def prime_product(A2, B2, p, dtype, N, kind, threads, reduce, out=None, checked=True,
                  work=None):
    """Cyclic (negacyclic) convolution of the zero-padded rows mod the prime p, as an
    (R, N) array of p's lane dtype: `out` when given (e.g. a scratch buffer), else a
    fresh array; reduce=False when A2, B2 < p already.  checked=False: A2, B2 may hold
    values >= p, taken where the kernels read the rows themselves and report the
    largest value (padded_product; forward transforms of full-length rows of the lanes'
    dtype): None when one is, or when the rows are not read so (the caller then checks
    them and calls again).
    work: an (R, N) buffer of the lane dtype for the second operand (default: a
    scratch buffer)."""
    plan = plan_for(N, p, dtype, kind)
    R = A2.shape[0]
    t = effective_threads(threads, R * N)
    tables = plan.tables(plan.reduction)
    if work is None:
        work = scratch("operand", (R, N), plan.dtype)
    if kind == "cyclic" and _padded_fits(A2, B2, N) and (not reduce or _reduce_on_load(plan)):
        # both zero-padded transforms and the product in one kernel call (n^-1 folded
        # into the product: the inverse skips its scaling; values reduced as read)
        dst = aligned_empty((R, N), plan.dtype) if out is None else out
        largest = _ntt.padded_product(A2, B2, dst, work, tables, t, pow(N, -1, p), reduce,
                                      0 if checked else p)   # (stops at a value >= p)
        return None if not checked and largest >= p else dst
    read_a = _read_path(A2, plan, N, kind, reduce)
    read_b = read_a if B2 is A2 else _read_path(B2, plan, N, kind, reduce)
    if not checked and (read_a is None or read_b is None):
        return None   # (rows the kernels would not read themselves: the caller checks them)
    fa, largest = _transformed(A2, plan, N, reduce, read_a, t, out)
    if B2 is A2:
        fb = fa
    else:
        fb, largest_b = _transformed(B2, plan, N, reduce, read_b, t, work)
        largest = max(largest, largest_b)
    if not checked and largest >= p:
        return None
    # The pointwise product is taken inside the inverse, block by block.  Cyclic: n^-1
    # folded into it, so the inverse skips its scaling.
    if kind == "cyclic":
        _ntt.pointwise_inverse(fa, fb, tables, t, pow(N, -1, p), False)
    else:
        _ntt.pointwise_inverse(fa, fb, tables, t, 1, True)
    return fa


def _transformed(X2, plan, N, reduce, read, threads, dst=None):
    """Forward transform (bit-reversed) of the rows X2 (mod p when reduce) zero-padded
    to N columns, into dst (R, N) or a fresh array, and the largest value of X2 where
    the kernel reads X2 itself (read: _read_path's answer; 0 where X2 is first copied)."""
    if dst is None:
        dst = aligned_empty((X2.shape[0], N), plan.dtype)
    tables = plan.tables(plan.reduction)
    # uint32 lanes: the LAZY family's [0, 2p) outputs go to the pointwise product as
    # they are
    reduced = plan.dtype != U32
    if read == "padded":   # the zero half is never written: the first stages read X2
        return dst, _ntt.forward_padded(X2, dst, tables, threads, reduced)
    if read == "rows":   # the first sweep reads X2 (no copy of its own)
        return dst, _ntt.forward(X2, dst, tables, threads, False, reduced)
    _residues.reduce_pad(X2, dst, plan.p, *barrett_constants(plan.p), reduce, threads)
    _ntt.forward(dst, dst, tables, threads, False, reduced)
    return dst, 0


def _read_path(X2, plan, N, kind, reduce):
    """How _transformed's kernel reads the rows X2 itself, reporting their largest value
    (so that they may hold values >= p, unchecked): "padded" (the zero-padded forward),
    "rows" (full rows of the lanes' dtype), or None (they are first copied, and reduced
    when `reduce`)."""
    if reduce:
        return None
    if kind == "cyclic" and N >= 8 and 2 * X2.shape[1] <= N:
        return "padded"
    if X2.shape[1] == N and X2.dtype == plan.dtype and X2.flags.c_contiguous:
        return "rows"
    return None


def _padded_fits(A2, B2, N):
    """Whether _ntt.padded_product takes these rows for length-N transforms."""
    return fits_padded_half(A2.shape[1], B2.shape[1], N) and A2.dtype == B2.dtype


def _reduce_on_load(plan):
    """Whether padded_product can reduce rows mod the plan's prime as it reads them:
    uint32 lanes and p < 2^31 (uint32 or uint64 rows, any values)."""
    return plan.dtype == U32 and plan.p < 1 << 31


# ---------------------------------------------------------------- several primes

def crt_product(A2, B2, m, basis, N, kind, L, threads, offset=0, checked=True, out=None):
    """Exact convolution (first L coefficients of each row) via the primes of `basis`,
    reduced mod m < 2**64: an (R, L) array (uint32 when the fused reconstruction serves
    m < 2**32, else uint64; `out` when given, a C-contiguous array of that dtype, on the
    fused path).  `offset` is added to every coefficient before reconstruction and
    removed after.  checked=False: A2, B2 may hold values >= m, taken only where the
    whole product is one call (basis.fused(m), cyclic, the rows within the zero-padded
    half: the call reports the largest value it read): None when one is."""
    R = A2.shape[0]
    if basis.fused(m):   # rebuilt from the primes' uint32 rows
        products = scratch("crt", (basis.k, R, N), basis.dtype)
        work = scratch("operand", (R, N), basis.dtype)
        t = effective_threads(threads, R * N)
        if out is None:
            out = aligned_empty((R, L), U32 if basis.fused32(m) else U64)
        if kind == "cyclic" and _padded_fits(A2, B2, N):
            # all of it one kernel call (values read mod each prime as they load)
            if basis.fused_product32(N, m, offset).run(A2, B2, products, work, out, t) < m:
                return out
            if checked:
                raise AssertionError("internal: a checked value at or above m")
            return None
        if not checked:
            raise AssertionError("internal: unchecked rows on a product that does not check them")
        for j, p in enumerate(basis.primes):
            prime_product(A2, B2, p, basis.dtype, N, kind, t, reduce=m > p, out=products[j],
                          work=work)
        return basis.reduce_products(products, m, offset, out, effective_threads(threads, R * L))
    if not checked:
        raise AssertionError("internal: unchecked rows on a product that does not check them")
    residues = crt_residues(A2, B2, basis, N, kind, L, threads, bound=m, offset=offset)
    t = effective_threads(threads, residues.size)
    digits = basis.digits(residues, t, out=residues)
    out = basis.reduce(digits, m, t)
    if offset:
        out = _sub_mod(out, np.uint64(offset % m), m)
    return out.reshape(R, L)


def crt_residues(A2: npt.NDArray[Any], B2: npt.NDArray[Any], basis: CRTBasis, N: int, kind: str,
                 L: int, threads: int | None, bound: int | None = None,
                 offset: int = 0) -> npt.NDArray[np.uint64]:
    """(k, R * L) uint64: the first L coefficients of each row's convolution modulo
    every prime of `basis` (+ offset).  A2, B2: uint64 rows with values < bound
    (None: any); reduced per prime as needed.  (Object rows, moduli >= 2^64, take
    object_products.)"""
    R = A2.shape[0]
    residues = np.empty((basis.k, R * L), dtype=U64)
    work = scratch("product", (R, N), basis.dtype)
    # One prime after the other, each transform threaded by OpenMP inside the kernels:
    # this beats one Python thread per prime at every size (two cores).
    t = effective_threads(threads, R * N)
    for j, p in enumerate(basis.primes):
        res = prime_product(A2, B2, p, basis.dtype, N, kind, t, reduce=bound is None or bound > p,
                            out=work)
        row = residues[j].reshape(R, L)
        row[...] = res[:, :L]
        if offset:
            row[...] = _add_mod(row, np.uint64(offset % p), p)
    return residues


def object_products(A2, B2, m, basis, N, threads):
    """The products of object rows (Python ints in [0, m), m >= 2**64): the rows'
    residues mod every prime of `basis`, then every prime's cyclic product of length N,
    as a (k, R, N) scratch array of the basis' lanes: one call where both rows fit the
    zero-padded half of N, else one prime_product a prime (a long row against a short
    one)."""
    R = A2.shape[0]
    t = effective_threads(threads, A2.size * basis.k)
    residues_a = basis.residues_of_ints(A2, m, t,
                                        out=scratch("input_a", (basis.k, A2.size), U64))
    residues_b = residues_a if B2 is A2 else basis.residues_of_ints(
        B2, m, t, out=scratch("input_b", (basis.k, B2.size), U64))
    products = scratch("crt", (basis.k, R, N), basis.dtype)
    work = scratch("operand", (R, N), basis.dtype)
    t = effective_threads(threads, R * N)
    if fits_padded_half(A2.shape[1], B2.shape[1], N):
        basis.padded_products(N).run(residues_a, residues_b, products, work, t)
    else:
        for j, p in enumerate(basis.primes):
            prime_product(residues_a[j], residues_b[j], p, basis.dtype, N, "cyclic", t,
                          reduce=False, out=products[j], work=work)
    return products


# ---------------------------------------------------------------- schoolbook, wrap

def schoolbook(A2, B2, m, threads=1):
    """Quadratic linear convolution of rows mod m < 2**64 (uint32/uint64 in [0, m)),
    as uint64.  threads: a count, or None for get_workers()."""
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
    _schoolbook.linear_mod(A2, rb, out, m, *barrett_constants(m), t)
    return out


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
    # x, y in [0, m), m < 2^64: x - y, plus m where it wrapped below 0.
    d = x - y
    return np.where(x < y, d + np.uint64(m), d)
