"""polymul on dask arrays: batches of rows, or one product too large for one machine.

Batches (2-D or N-D, or 1-D operands in one chunk each): every block of rows is one
in-memory ntt_cy.polymul call; no communication.  One huge 1-D product (an operand
split over several chunks): the operands are reduced mod m, then for each transform
prime (m itself where it is an NTT prime for the padded length, else a CRT basis)
both are transformed by ntt_large in transposed order, multiplied pointwise and
transformed back by intt_large, which takes that order: two all-to-alls each way.
Garner's reconstruction then runs per coefficient chunk.  Every modulus ntt_cy.polymul
accepts works, moduli >= 2**64 included (object arrays of Python ints).
"""
from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
import numpy.typing as npt

from ntt_cy._support import checks as _checks
from ntt_cy._support.threads import check_thread_count
from ntt_cy._typing import Integer, Kind, PolyKind, RechunkMethod
from ntt_cy.dask import blocks
from ntt_cy.dask.four_step import intt_large, ntt_large
from ntt_cy.dask.transforms import as_dask_array, check_integer_dtype
from ntt_cy.poly import output_dtype
from ntt_cy.primes import is_prime, two_adicity

U32, U64, OBJ = np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(object)


def polymul(a: da.Array | npt.ArrayLike, b: da.Array | npt.ArrayLike, modulus: Integer, *,
            kind: PolyKind = "linear", threads: int = 1, n1: Integer | None = None,
            rechunk_method: RechunkMethod | None = None) -> da.Array:
    """Polynomial products modulo `modulus` on dask arrays, lazily.

    Parameters
    ----------
    a, b : dask.array.Array or array_like of integers
        Coefficients along the last axis, lowest degree first; any integer values
        (reduced modulo m).  N-D: rows multiplied pairwise, leading shapes broadcast,
        the coefficient axis gathered into one chunk (one ntt_cy.polymul per block of
        rows).  1-D with an operand in several chunks: one huge product (four-step
        transforms over the cluster).
    modulus : int
        Any integer m >= 1 (as :func:`ntt_cy.polymul`).
    kind : {"linear", "cyclic", "negacyclic"}
        As :func:`ntt_cy.polymul`.
    threads : int, default 1
        Kernel threads inside each task.
    n1 : int, optional
        For one huge product: the four-step split (see :func:`ntt_cy.dask.ntt_large`).
    rechunk_method : {None, "tasks", "p2p"}, optional
        For one huge product: dask's rechunk method for the all-to-alls.

    Returns
    -------
    dask.array.Array
        The products, as :func:`ntt_cy.polymul` returns them (dtype uint32 for
        m <= 2**32, uint64 up to 2**64, object above).

    Raises
    ------
    ValueError
        A modulus below 1, 0-d or empty operands, lengths that differ for a cyclic or
        negacyclic product, batch shapes that do not broadcast, a `kind` or `threads`
        that is not valid.
    TypeError
        A non-integer dtype or modulus.

    See Also
    --------
    ntt_cy.polymul : The in-memory product of each block.
    ntt_large : The transforms of one huge product.

    Examples
    --------
    >>> import dask.array as da, numpy as np, ntt_cy, ntt_cy.dask
    >>> a = da.arange(1 << 12, chunks=1 << 10)
    >>> c = ntt_cy.dask.polymul(a, a, 10**9 + 7)
    >>> bool((c.compute() == ntt_cy.polymul(np.arange(1 << 12), np.arange(1 << 12), 10**9 + 7)).all())
    True
    """
    a, b = as_dask_array(a, "a"), as_dask_array(b, "b")
    check_integer_dtype(a, "a")
    check_integer_dtype(b, "b")
    m = _checks.as_int(modulus, "modulus")
    if m < 1:
        raise ValueError(f"modulus must be >= 1, got {m}")
    kind = _checks.check_poly_kind(kind)
    check_thread_count(threads)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("a and b must have at least one dimension")
    na, nb = a.shape[-1], b.shape[-1]
    if na == 0 or nb == 0:
        raise ValueError("a and b must not be empty")
    if kind != "linear" and na != nb:
        raise ValueError(f"kind={kind!r} needs a and b of the same length n, got {na} and {nb}")
    if a.ndim == b.ndim == 1 and (a.numblocks[0] > 1 or b.numblocks[0] > 1):
        return HugeProduct(a, b, m, kind, threads, n1, rechunk_method).result()
    return _batched(a, b, m, kind, threads)


def _batched(a: da.Array, b: da.Array, m: int, kind: PolyKind, threads: int) -> da.Array:
    na, nb = a.shape[-1], b.shape[-1]
    try:
        batch = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(f"batch shapes of a {a.shape[:-1]} and b {b.shape[:-1]} do not "
                         f"broadcast (the last axis holds the coefficients)") from None
    a = da.broadcast_to(a, batch + (na,)).rechunk({-1: -1})
    b = da.broadcast_to(b, batch + (nb,)).rechunk(a.chunks[:-1] + ((nb,),))
    length = na + nb - 1 if kind == "linear" else na
    dtype = output_dtype(m)
    return da.map_blocks(blocks.product_rows, a, b, m, kind, threads, dtype=dtype,
                         chunks=a.chunks[:-1] + ((length,),),
                         meta=np.empty((0,) * a.ndim, dtype=dtype), token="ntt_cy-polymul")


def _next_pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def _transform_prime(m: int, log2n: int) -> bool:
    """m itself serves as the transform prime for length 2**log2n."""
    return m < 1 << 64 and two_adicity(m) >= log2n and is_prime(m)


class HugeProduct:
    """One product of two 1-D dask arrays through four-step transforms."""

    def __init__(self, a: da.Array, b: da.Array, m: int, kind: PolyKind, threads: int,
                 n1: Integer | None, method: RechunkMethod | None) -> None:
        self.a, self.b, self.m, self.kind = a, b, m, kind
        self.threads, self.n1, self.method = threads, n1, method
        self.parts: int = max(a.numblocks[0], b.numblocks[0])
        self.na, self.nb = a.shape[0], b.shape[0]

    def result(self) -> da.Array:
        """The product, lazily, in polymul's output dtype."""
        return self._product().astype(output_dtype(self.m))

    def _product(self) -> da.Array:
        m, n = self.m, self.na
        dtype = output_dtype(m)
        if m == 1:
            length = self.na + self.nb - 1 if self.kind == "linear" else n
            return da.zeros(length, dtype=U64, chunks=self._chunk(length)).astype(dtype)
        if self.kind != "linear":
            negacyclic = self.kind == "negacyclic"
            if n & (n - 1) == 0 and n > 1 and _transform_prime(m, (n.bit_length() - 1) + negacyclic):
                return self._prime_product(m, n, self.kind).astype(dtype)
            return self._wrap(self._linear(), n, negacyclic)
        return self._linear()

    def _chunk(self, length: int) -> int:
        return max(1, -(-length // self.parts))

    def _reduced(self, x: da.Array, name: str) -> da.Array:
        dtype = U64 if self.m < 1 << 64 else OBJ
        return x.map_blocks(blocks.reduce_to, self.m, dtype=dtype,
                            meta=np.empty((0,), dtype=dtype), token="ntt_cy-reduce")

    def _padded(self, x: da.Array, length: int) -> da.Array:
        """x zero-padded to `length`, in the product's common chunks."""
        chunk = self._chunk(length)
        if x.shape[0] < length:
            x = da.concatenate([x, da.zeros(length - x.shape[0], dtype=x.dtype, chunks=chunk)])
        return x.rechunk(chunk, method=self.method)

    def _prime_product(self, p: int, N: int, kind: Kind, a: da.Array | None = None,
                       b: da.Array | None = None) -> da.Array:
        """The cyclic (negacyclic) product of length N mod the prime p, natural order."""
        a = self._reduced(self.a, "a") if a is None else a
        b = self._reduced(self.b, "b") if b is None else b
        options: dict[str, Any] = dict(n1=self.n1, kind=kind, threads=self.threads,
                                       rechunk_method=self.method)
        fa = ntt_large(self._padded(a, N), p, order="transposed", **options)
        fb = ntt_large(self._padded(b, N), p, order="transposed", **options)
        fc = da.map_blocks(blocks.multiply, fa, fb, p, self.threads, dtype=fa.dtype,
                           meta=np.empty((0,), dtype=fa.dtype), token="ntt_cy-pointwise")
        return intt_large(fc, p, order="transposed", **options)

    def _linear(self) -> da.Array:
        m = self.m
        L = self.na + self.nb - 1
        N = _next_pow2(L)
        log2n = N.bit_length() - 1
        dtype = output_dtype(m)
        if _transform_prime(m, log2n):
            return self._prime_product(m, N, "cyclic")[:L].astype(dtype)
        from ntt_cy._routing import choose_basis

        basis = choose_basis(min(self.na, self.nb) * (m - 1) ** 2, log2n)
        primes, lanes = basis.primes, basis.dtype.name
        a, b = self._reduced(self.a, "a"), self._reduced(self.b, "b")
        ra = self._residues(a, primes, lanes)
        rb = self._residues(b, primes, lanes)
        products = [self._prime_product(p, N, "cyclic", ra[j], rb[j])[:L].astype(U64)
                    for j, p in enumerate(primes)]
        stacked = da.stack(products).rechunk({0: -1, 1: self._chunk(L)}, method=self.method)
        rebuilt = OBJ if m >= 1 << 64 else dtype   # (Python ints from 2**64 on)
        return stacked.map_blocks(blocks.garner, primes, lanes, m, self.threads, drop_axis=0,
                                  dtype=rebuilt, meta=np.empty((0,), dtype=rebuilt),
                                  token="ntt_cy-garner")

    def _residues(self, x: da.Array, primes: tuple[int, ...], lanes: str) -> da.Array:
        k = len(primes)
        return x.map_blocks(blocks.residues, primes, lanes, self.m, self.threads, new_axis=0,
                            chunks=((k,),) + x.chunks, dtype=U64,
                            meta=np.empty((0, 0), dtype=U64), token="ntt_cy-residues")

    def _wrap(self, linear: da.Array, n: int, negacyclic: bool) -> da.Array:
        """A linear product (2n - 1 coefficients) folded modulo x^n -/+ 1."""
        chunk = self._chunk(n)
        head = linear[:n].rechunk(chunk, method=self.method)
        tail = da.concatenate([linear[n:], da.zeros(1, dtype=linear.dtype, chunks=1)])
        tail = tail.rechunk(chunk, method=self.method)
        return da.map_blocks(blocks.wrap_add, head, tail, self.m, negacyclic,
                             dtype=linear.dtype, meta=np.empty((0,), dtype=linear.dtype),
                             token="ntt_cy-wrap")
