"""ntt_large / intt_large: ONE transform longer than a chunk, by Bailey's four-step.

With n = n1 n2 and X[j1, j2] = x[n2 j1 + j2] (x viewed as n1 rows of n2):

1. all-to-all: X rechunked so that every block holds whole columns;
2. length-n1 transforms down the columns (root w^n2), then each element times
   w^(k1 j2), the factors generated inside the block from its offsets;
3. all-to-all: every block holds whole rows;
4. length-n2 transforms along the rows (root w^n1): Z[k1, k2] = A[k1 + n1 k2];
5. natural order only: a third all-to-all, Z transposed, so that A[k] is element k.

``order="transposed"`` returns Z flattened (element k1 n2 + k2 is A[k1 + n1 k2]) and
skips step 5; intt_large takes that order back, so a convolution costs two all-to-alls
each way (FFTW-MPI's TRANSPOSED_OUT / TRANSPOSED_IN).  The sub-transforms' roots come
from the same generator as ntt_cy's (w = g^((p-1)/n)), so the result is exactly
ntt_cy.ntt's.  Negacyclic transforms twist x by psi^i first (and the inverse untwists
after): element-wise, in each block, no communication.
"""
from __future__ import annotations

import math
from typing import Any

import dask.array as da
import numpy as np
import numpy.typing as npt

from ntt_cy._support import checks as _checks
from ntt_cy._support.threads import check_thread_count
from ntt_cy._typing import Integer, Kind, Order, RechunkMethod
from ntt_cy.dask import blocks
from ntt_cy.dask.transforms import (as_dask_array, check_integer_dtype, result_dtype,
                                    transform_dtype)
from ntt_cy.primes import root_of_unity

ORDERS = ("natural", "transposed")
RECHUNK_METHODS = (None, "tasks", "p2p")


class FourStep:
    """The parameters of one four-step transform: lengths, roots, lanes, blocks."""

    def __init__(self, x: da.Array | npt.ArrayLike, p: Integer, n1: Integer | None, order: Order,
                 kind: Kind, root: Integer | None, threads: int,
                 rechunk_method: RechunkMethod | None) -> None:
        self.x = as_dask_array(x, "x")
        check_integer_dtype(self.x, "x")
        if self.x.ndim != 1:
            raise ValueError(f"x must be 1-D (one long transform), got {self.x.ndim} dimensions; "
                             f"for a batch of transforms use ntt_cy.dask.ntt")
        self.p = _checks.check_prime_modulus(p)
        self.kind = _checks.check_kind(kind)
        if order not in ORDERS:
            raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
        if rechunk_method not in RECHUNK_METHODS:
            raise ValueError(f"rechunk_method must be one of {RECHUNK_METHODS}, "
                             f"got {rechunk_method!r}")
        check_thread_count(threads)
        self.order, self.threads, self.method = order, threads, rechunk_method
        n = self.x.shape[0]
        if n is None or math.isnan(n):
            raise ValueError("x has an unknown length: call x.compute_chunk_sizes()")
        _checks.check_transform_size(n, self.p, self.kind)
        self.n = n
        self.n1 = self._check_split(n, n1)
        self.n2 = n // self.n1
        self.lanes = transform_dtype(self.p)
        self.result_dtype = result_dtype(self.x.dtype, self.p)   # (as ntt_cy.ntt's)
        if self.kind == "negacyclic":
            self.psi: int | None = root_of_unity(2 * n, self.p, root)
            self.w = self.psi * self.psi % self.p
        else:
            self.psi = None
            self.w = root_of_unity(n, self.p, root)
        self.w_inv = pow(self.w, -1, self.p)
        self.parts: int = max(self.x.numblocks[0], 1)

    @staticmethod
    def _check_split(n: int, n1: Integer | None) -> int:
        if n1 is None:
            return 1 << ((n.bit_length() - 1) // 2)   # n1 <= n2, both powers of two
        n1 = _checks.as_int(n1, "n1")
        if n1 < 1 or n1 & (n1 - 1) or n % n1:
            raise ValueError(f"n1 = {n1} must be a power of two dividing n = {n}")
        return n1

    def meta(self, ndim: int) -> npt.NDArray[Any]:
        return np.empty((0,) * ndim, dtype=self.lanes)

    def block_length(self, length: int) -> int:
        """Block length along an axis of `length` split into the input's part count."""
        return max(1, -(-length // self.parts))

    def rechunk(self, arr: da.Array, chunks: Any) -> da.Array:
        return arr.rechunk(chunks, method=self.method)

    def as_rows(self, flat: da.Array, width: int) -> da.Array:
        """A 1-D array viewed as rows of `width` (its chunks made whole rows first)."""
        rows = flat.shape[0] // width
        per_chunk = max(1, round(flat.chunksize[0] / width))
        flat = self.rechunk(flat, per_chunk * width)
        return flat.reshape(rows, width)

    def twist(self, flat: da.Array, base: int, check: bool) -> da.Array:
        return flat.map_blocks(blocks.twist, self.p, base, check, self.threads,
                               dtype=self.lanes, meta=self.meta(1), token="ntt_cy-twist")

    def sub_transform(self, arr: da.Array, axis: int, root: int, inverse: bool) -> da.Array:
        return arr.map_blocks(blocks.transform, self.p, axis, "cyclic", root, "auto", inverse,
                              self.threads, dtype=self.lanes, meta=self.meta(2),
                              token="ntt_cy-intt" if inverse else "ntt_cy-ntt")

    def first_pass(self, arr: da.Array, root: int, w: int, inverse: bool) -> da.Array:
        return arr.map_blocks(blocks.first_pass, self.p, root, w, inverse, self.threads,
                              dtype=self.lanes, meta=self.meta(2),
                              token="ntt_cy-four-step-" + ("inverse" if inverse else "forward"))

    def forward(self) -> da.Array:
        n1, n2, p = self.n1, self.n2, self.p
        x = self.x
        if self.psi is not None:
            x = self.twist(x, self.psi, check=True)
        X = self.rechunk(self.as_rows(x, n2), {0: -1, 1: self.block_length(n2)})
        Y = self.first_pass(X, pow(self.w, n2, p), self.w, inverse=False)
        Y = self.rechunk(Y, {0: self.block_length(n1), 1: -1})
        Z = self.sub_transform(Y, 1, pow(self.w, n1, p), inverse=False)
        if self.order == "transposed":
            return Z.reshape(self.n).astype(self.result_dtype)
        Z = self.rechunk(Z.T, {0: self.block_length(n2), 1: -1}).reshape(self.n)
        return Z.astype(self.result_dtype)

    def inverse(self) -> da.Array:
        n1, n2, p = self.n1, self.n2, self.p
        if self.order == "transposed":
            Z = self.as_rows(self.x, n2)
        else:
            Z = self.rechunk(self.as_rows(self.x, n1).T, {0: self.block_length(n1), 1: -1})
        U = self.first_pass(Z, pow(self.w, n1, p), self.w_inv, inverse=True)
        U = self.rechunk(U, {0: -1, 1: self.block_length(n2)})
        X = self.sub_transform(U, 0, pow(self.w, n2, p), inverse=True)
        x = self.rechunk(X, {0: self.block_length(n1), 1: -1}).reshape(self.n)
        if self.psi is not None:
            x = self.twist(x, pow(self.psi, -1, p), check=False)
        return x.astype(self.result_dtype)


def ntt_large(x: da.Array | npt.ArrayLike, p: Integer, *, n1: Integer | None = None,
              order: Order = "natural", kind: Kind = "cyclic", root: Integer | None = None,
              threads: int = 1, rechunk_method: RechunkMethod | None = None) -> da.Array:
    """One forward NTT of a 1-D dask array longer than a chunk (Bailey's four-step).

    Parameters
    ----------
    x : dask.array.Array or array_like of integers
        1-D, length n a power of two, values in [0, p) (checked in the tasks).
        Its chunk count sets how many blocks each pass has.
    p : int
        An NTT-friendly prime below 2**64 (n | p - 1; 2n for negacyclic).
    n1 : int, optional
        The split n = n1 * n2 (a power of two; default about sqrt(n), n1 <= n2).
    order : {"natural", "transposed"}
        "natural": element k is A[k] (three all-to-alls).  "transposed": element
        k1 * n2 + k2 is A[k1 + n1 * k2] (two; intt_large takes it back).
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        As in :func:`ntt_cy.ntt`.
    root : int, optional
        As in :func:`ntt_cy.ntt`.
    threads : int, default 1
        Kernel threads inside each task.
    rechunk_method : {None, "tasks", "p2p"}, optional
        dask's rechunk method for the all-to-alls (None: dask's configured default).

    Returns
    -------
    dask.array.Array
        1-D, length n, the dtype ``ntt_cy.ntt`` gives (a uint32 or uint64 input that
        holds [0, p) keeps its own, others uint32 for p < 2**32 else uint64);
        bit-identical to ``ntt_cy.ntt(x, p, kind=kind, root=root)`` (in the chosen
        order).

    Raises
    ------
    ValueError
        At once: x not 1-D or of unknown length, n not a power of two dividing p - 1
        (2n for negacyclic), an `n1` that is not a power of two dividing n, an
        `order`, `kind`, `root` or `rechunk_method` that is not valid.  When
        computed: values outside [0, p).
    TypeError
        A non-integer dtype, or an argument of the wrong type.

    See Also
    --------
    intt_large : The inverse.
    ntt : Many transforms, each in one chunk.

    Notes
    -----
    Bailey's four-step: with n = n1 n2, transforms of length n1 down the columns,
    twiddle factors, transforms of length n2 along the rows, and all-to-all rechunks
    between them (see the module notes, ntt_cy/dask/four_step.py).

    Examples
    --------
    >>> import dask.array as da, numpy as np, ntt_cy, ntt_cy.dask
    >>> x = da.arange(1 << 12, chunks=1 << 10) % 998244353
    >>> A = ntt_cy.dask.ntt_large(x, 998244353)
    >>> bool((A.compute() == ntt_cy.ntt(np.arange(1 << 12), 998244353)).all())
    True
    """
    return FourStep(x, p, n1, order, kind, root, threads, rechunk_method).forward()


def intt_large(x: da.Array | npt.ArrayLike, p: Integer, *, n1: Integer | None = None,
               order: Order = "natural", kind: Kind = "cyclic", root: Integer | None = None,
               threads: int = 1, rechunk_method: RechunkMethod | None = None) -> da.Array:
    """The normalised inverse of :func:`ntt_large`: `x` in the given `order` (the one
    ntt_large produced it in, with the same `n1`), natural order out.

    Parameters
    ----------
    x : dask.array.Array or array_like of integers
        1-D, length n a power of two, transform values in [0, p) in `order`.
    p : int
        The prime of the forward transform.
    n1 : int, optional
        The split ntt_large used (the default is the same).
    order : {"natural", "transposed"}, default "natural"
        The order of `x`, as :func:`ntt_large` produced it.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        The kind of the forward transform.
    root : int, optional
        The root of the forward transform.
    threads : int, default 1
        Kernel threads inside each task.
    rechunk_method : {None, "tasks", "p2p"}, optional
        dask's rechunk method for the all-to-alls.

    Returns
    -------
    dask.array.Array
        1-D, length n, natural order, dtype as :func:`ntt_large` gives it.

    Raises
    ------
    ValueError, TypeError
        As :func:`ntt_large`.

    See Also
    --------
    ntt_large : The forward transform.

    Examples
    --------
    >>> import dask.array as da, numpy as np, ntt_cy.dask
    >>> x = da.arange(1 << 12, chunks=1 << 10) % 998244353
    >>> A = ntt_cy.dask.ntt_large(x, 998244353, order="transposed")
    >>> y = ntt_cy.dask.intt_large(A, 998244353, order="transposed")
    >>> bool((y.compute() == np.arange(1 << 12)).all())
    True
    """
    return FourStep(x, p, n1, order, kind, root, threads, rechunk_method).inverse()
