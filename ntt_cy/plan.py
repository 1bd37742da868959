"""NTTPlan: one transform size and modulus, its twiddle tables, and dispatch to the kernels."""
from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any, Callable, TypeVar

import numpy as np
import numpy.typing as npt

from ntt_cy._support import checks as _checks
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.aligned import (PAGE_ELEMENTWISE, PAGE_QUOTIENTS, PAGE_TWIDDLES,
                                    TABLE_TAIL_BYTES, aligned_copy, aligned_empty)
from ntt_cy._support.memory import check_memory, settings as memory_settings
from ntt_cy._support.pieces import piece_rows, piece_starts
from ntt_cy._support.scratch import LIMIT_BYTES as SCRATCH_LIMIT_BYTES, scratch
from ntt_cy._support.threads import PARALLEL_MIN_ELEMENTS, check_workers, effective_threads
from ntt_cy._typing import Integer, IntegerArray, Kind, Reduction
from ntt_cy.primes import root_of_unity

__all__ = ["NTTPlan", "get_plan"]

_Plan = TypeVar("_Plan")

# The longest transform: the bit-reversal table holds uint32 indices.
MAX_LENGTH = 1 << 32
# One row shorter than this (2^17) is one compiled call, its arguments read there
# (_ntt.plan_row_call, _ntt.transform_row): such a row ends long before a call would
# first poll for signals (ntt_cy/_kernels/ntt/entry.pxi).
ROW_CALL_BELOW_N: int = _ntt.ROW_CALL_BELOW_N
# Transforms of fewer values are one kernel call without estimating their time: well
# within two pieces (_support/pieces.py) on every kernel build.
PIECES_FROM = 1 << 18


def modulus_constants(p: int, dt: np.dtype[Any], mont_bits: int | None = None) -> dict[str, int]:
    """Precomputed constants of every reduction family for p on lanes of dtype dt.

    mont_bits is the Montgomery radix the kernels use (the lane width, or 52 in
    builds with AVX-512 IFMA for uint64 lanes and p < 2**52).
    """
    bits = 8 * dt.itemsize
    shift = 64 - p.bit_length()
    d = p << shift
    return {
        "p": p,
        "two_p": (2 * p) % (1 << 64),
        "mont_pinv": pow(p, -1, 1 << bits) if p % 2 else 0,
        "mont_bits": mont_bits or bits,
        "mont52_pinv": (-pow(p, -1, 1 << 52)) % (1 << 52) if p % 2 else 0,
        "barrett_mu": (1 << 64) // p,
        "barrett_d": d,
        "barrett_v": ((1 << 128) - 1) // d - (1 << 64),
        "barrett_shift": shift,
    }


def float_twiddles(tw: npt.NDArray[np.unsignedinteger[Any]], p: int
                   ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The double-precision operands of the AVX2 uint64 LAZY kernels (ntt_cy/_kernels/simd/ntt64/avx2.h):
    each twiddle w in [0, p) balanced into (-p/2, p/2] as a double, and that double / p.

    Exact for p < 2**51: the balanced values are integers below 2**50 in size, and
    numpy's float64 division rounds correctly, which the kernels' error bound assumes.
    """
    signed = tw.astype(np.int64)
    balanced = np.where(signed > (p - 1) // 2, signed - p, signed).astype(np.float64)
    return balanced, balanced / np.float64(p)


def table_page_offset(key: str) -> int:
    """Where in a page a table starts (see ntt_cy/_support/aligned.pyx): the stage twiddles
    and their quotients apart from each other and from the data, so a radix-4 group's
    ten streams do not share one L1 set."""
    if key.startswith(("twist", "untwist")):
        return PAGE_ELEMENTWISE
    if key.endswith("_tw") or key.endswith("_tw_f"):
        return PAGE_TWIDDLES
    if key.endswith("_q") or key.endswith("_fq"):
        return PAGE_QUOTIENTS
    return 0


def bit_reversal_permutation(n: int, out: npt.NDArray[np.uint32] | None = None
                             ) -> npt.NDArray[np.uint32]:
    """rev[i] = i with its log2(n) bits reversed, built by doubling: for i in [m, 2m),
    rev[i] = rev[i - m] + n / (2m) (one write per entry); into `out` (uint32, length n)
    when given."""
    rev = np.empty(n, dtype=np.uint32) if out is None else out
    rev[:1] = 0
    m = 1
    while m < n:
        np.add(rev[:m], n // (2 * m), out=rev[m:2 * m])
        m *= 2
    return rev


class NTTPlan:
    """A reusable length-n NTT modulo the prime p: its twiddle tables, built once.

    Parameters
    ----------
    n : int
        Transform length, a power of two dividing p - 1 (2n must divide p - 1 for
        ``kind="negacyclic"``), at most 2**32.
    p : int
        Prime modulus, p < 2**32 for uint32 lanes, p < 2**64 for uint64 lanes.
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lane width; None picks uint32 when p < 2**32.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        Cyclic: A[k] = sum a[i] w^(ik).  Negacyclic: A[k] = sum a[i] psi^i w^(ik)
        with psi a primitive 2n-th root and w = psi^2 (products modulo x^n + 1).
    reduction : {"auto", "montgomery", "barrett", "lazy", "goldilocks"}, default "auto"
        Default butterfly family; every family gives identical results.
    root : int, optional
        A primitive n-th root of unity (2n-th for negacyclic) to use instead of the
        default g^((p-1)/n), g the smallest generator.

    Attributes
    ----------
    n, p : int
        The length and the modulus.
    dtype : numpy.dtype
        The lanes (uint32 or uint64).
    kind : str
        "cyclic" or "negacyclic".
    reduction : str
        The family "auto" resolved to (or the one asked for).
    root : int
        The root of unity in use (n-th; 2n-th for negacyclic).

    Raises
    ------
    ValueError
        n not a power of two dividing p - 1 (2n for negacyclic) or above 2**32, p not
        a prime of the lanes' range, a family not valid for p (``"lazy"`` needs
        p < 2**31 on uint32 lanes, 4p <= 2**64 on uint64 ones; ``"goldilocks"`` is
        2**64 - 2**32 + 1 on uint64 lanes only), a `root` that is not a primitive root
        of the right order.
    TypeError
        Non-integer `n`, `p` or `root`.
    MemoryError
        The tables and one row would exceed the memory available.

    See Also
    --------
    ntt, intt : The same transforms with cached plans.
    ntt_cy.cuda.NTTPlan : The plan on a CUDA device.

    Notes
    -----
    Twiddle tables are built on first use of each family and shared by every thread:
    one plan may be used from several Python threads at once.  Plans are equal (and
    hash alike) when their parameters are: n, p, the lanes, kind, the reduction asked
    for and the root; they pickle, copy and tokenize (dask) by those parameters.  A
    plan transforms arrays of length n only (no cropping or padding: ``ntt(..., n=)``
    does that).  Calling a plan is :meth:`forward`.

    Examples
    --------
    >>> import ntt_cy
    >>> plan = ntt_cy.NTTPlan(8, 998244353)
    >>> plan
    NTTPlan(n=8, p=998244353, dtype='uint32', kind='cyclic', reduction='auto')
    >>> plan.forward([1, 2, 3, 4, 5, 6, 7, 8]).tolist()[:2]
    [36, 894301004]
    >>> plan == ntt_cy.NTTPlan(8, 998244353, reduction="auto")
    True
    """

    def __init__(self, n: Integer, p: Integer, *, dtype: npt.DTypeLike | None = None,
                 kind: Kind = "cyclic", reduction: Reduction = "auto",
                 root: Integer | None = None) -> None:
        p = _checks.check_prime_modulus(p)
        self.kind = _checks.check_kind(kind)
        self.dtype = _checks.lane_dtype(p, dtype)
        n = _checks.as_int(n, "n")
        _checks.check_transform_size(n, p, self.kind)
        if n > MAX_LENGTH:
            raise ValueError(f"transform length n = {n} is beyond the longest ntt_cy computes "
                             f"(2**32: its bit-reversal tables hold 32-bit indices)")
        self.n, self.p = n, p
        self.reduction = _checks.check_reduction(reduction, p, self.dtype)
        self._asked_reduction = str(reduction)   # "auto" stays "auto" in a pickled copy
        self._auto = _checks.check_reduction("auto", p, self.dtype)   # per call: a lookup
        order = 2 * n if self.kind == "negacyclic" else n
        self.root = root_of_unity(order, p, root)
        self._default_root = self.root == root_of_unity(order, p)
        check_memory(self.table_bytes(self.reduction) + 2 * n * self.dtype.itemsize,
                     "NTTPlan(n={}) on {} lanes (its twiddle tables and one row)", n,
                     self.dtype)
        self._modulus = modulus_constants(p, self.dtype,
                                          _ntt.montgomery_bits(p, self.dtype.itemsize))
        self._tables: dict[str, Any] = {}
        # The tables of the plan's own family once built, for n < ROW_CALL_BELOW_N:
        # forward / inverse then try the compiled one-row call (_ntt.plan_row_call) first
        self._row_tables: Any = None
        self._lock = threading.Lock()

    def _parameters(self) -> tuple[int, int, str, str, str, int]:
        return (self.n, self.p, self.dtype.name, self.kind, self._asked_reduction, self.root)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy the parameters, not the tables or the lock: a copy (another
        # process's, say) builds its own tables on first use
        return (plan_from_parameters, (type(self),) + self._parameters())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._parameters() == other._parameters()

    def __hash__(self) -> int:
        return hash((type(self).__qualname__,) + self._parameters())

    def __dask_tokenize__(self) -> tuple[Any, ...]:
        # dask's key for a plan in a task graph: its parameters, as it travels
        return (type(self).__module__, type(self).__qualname__) + self._parameters()

    def __repr__(self) -> str:
        root = "" if self._default_root else f", root={self.root}"
        return (f"{type(self).__name__}(n={self.n}, p={self.p}, dtype={self.dtype.name!r}, "
                f"kind={self.kind!r}, reduction={self._asked_reduction!r}{root})")

    # ------------------------------------------------------------------ memory
    def table_bytes(self, family: str) -> int:
        """The peak memory of building one family's tables (an estimate, in bytes): the
        tables (bit reversal, both stage twiddle sets, and the negacyclic twist and
        untwist; Shoup quotients, double-precision forms and group tables where the
        family has them), built where they stay, and beside them at the peak either the
        root's powers for one set (a row of temporaries) or the copies of the
        double-precision forms, which are computed by numpy (with a row of temporaries)
        and then placed."""
        n, s = self.n, self.dtype.itemsize
        sets = 4 if self.kind == "negacyclic" else 2
        per_set = n * s * (2 if family == "lazy" else 1)
        floats = family == "lazy" and _ntt.float_twiddles(self.p, s)
        if floats:
            per_set += 16 * n
        groups = 2 * 8 * _ntt.goldilocks_groups_length(n) if family == "goldilocks" else 0
        tables = 4 * n + sets * per_set + groups
        return tables + max(n * s, 16 * n * (sets + 1) if floats else 0)

    # ------------------------------------------------------------------ tables
    def tables(self, family: str) -> Any:
        """The twiddle tables of one (already validated) family, built once."""
        t = self._tables.get(family)
        if t is None:
            with self._lock:
                t = self._tables.get(family)
                if t is None:
                    t = self._build_tables(family)
                    self._tables[family] = t
                    if family == self.reduction and self.n < ROW_CALL_BELOW_N:
                        self._row_tables = t
        return t

    def _table(self, key: str, count: int) -> npt.NDArray[Any]:
        """An uninitialised table of `count` lanes, placed in memory as the kernels read
        table `key` (table_page_offset), with the readable tail they need: the tables
        are written where they will stay, not copied there."""
        return aligned_empty(count, self.dtype, table_page_offset(key), TABLE_TAIL_BYTES)

    def _powers(self, base: int, start: int, count: int, key: str | None = None
                ) -> npt.NDArray[Any]:
        """start * base^i mod p for i < count (at least one), as table `key` when given."""
        count = max(count, 1)
        out = np.empty(count, dtype=self.dtype) if key is None else self._table(key, count)
        _ntt.powers(out, base, start, self.p)
        return out

    def _family_form(self, family: str, values: npt.NDArray[Any], arrays: dict[str, Any],
                     key: str) -> None:
        if family == "montgomery":
            _ntt.to_montgomery(values, self.p, self._modulus["mont_bits"])
        elif family == "lazy":
            q = self._table(key + "_q", values.shape[0])
            _ntt.shoup_quotients(values, q, self.p)
            arrays[key + "_q"] = q
            if _ntt.float_twiddles(self.p, self.dtype.itemsize):
                # (computed by numpy, then placed)
                for suffix, table in zip(("_f", "_fq"), float_twiddles(values, self.p)):
                    arrays[key + suffix] = aligned_copy(table, table_page_offset(key + suffix),
                                                        TABLE_TAIL_BYTES)
        arrays[key] = values

    def _goldilocks_groups(self, base: int, arrays: dict[str, Any], key: str) -> None:
        # The goldilocks family's radix-64 group tables (the second table of the stage
        # twiddles of root `base`) where this build runs the family by groups.
        length = _ntt.goldilocks_groups_length(self.n)
        if length:
            groups = self._table(key + "_q", length)
            _ntt.goldilocks_groups(groups, base, self.n)
            arrays[key + "_q"] = groups

    def _scalar_form(self, family: str, value: int) -> tuple[int, int]:
        arr = np.array([value], dtype=self.dtype)
        tmp: dict[str, Any] = {}
        self._family_form(family, arr, tmp, "s")
        return int(tmp["s"][0]), int(tmp["s_q"][0]) if "s_q" in tmp else 0

    def _build_tables(self, family: str) -> Any:
        n, p = self.n, self.p
        if self.kind == "negacyclic":
            psi = self.root
            w = psi * psi % p
        else:
            psi, w = None, self.root
        rev = aligned_empty(n, np.uint32, table_page_offset("bitrev"), TABLE_TAIL_BYTES)
        arrays: dict[str, Any] = {"bitrev": bit_reversal_permutation(n, out=rev)}
        for key, base in (("fwd_tw", w), ("inv_tw", pow(w, -1, p))):
            tw = self._table(key, n)
            _ntt.stage_twiddles(tw, self._powers(base, 1, n // 2))
            self._family_form(family, tw, arrays, key)
            if family == "goldilocks":
                self._goldilocks_groups(base, arrays, key)
        n_inv = pow(n, -1, p)
        if psi is not None:
            self._family_form(family, self._powers(psi, 1, n, "twist"), arrays, "twist")
            self._family_form(family, self._powers(pow(psi, -1, p), n_inv, n, "untwist"),
                              arrays, "untwist")
        scale, scale_q = self._scalar_form(family, n_inv)
        return _ntt.TransformTables(family, self._modulus, arrays, n, scale, scale_q)

    # ------------------------------------------------------------------ transforms
    def forward(self, a: npt.ArrayLike, *, axis: Integer = -1, out: IntegerArray | None = None,
                workers: Integer | None = None, reduction: Reduction | None = None,
                bit_reversed: bool = False, assume_reduced: bool = False) -> IntegerArray:
        """Forward NTT along `axis`, whose length must be n.

        Parameters
        ----------
        a : array_like of integers
            Values in [0, p), as :func:`ntt_cy.ntt` takes them.
        axis : int, default -1
            Axis to transform; its length must be n.
        out : ndarray, optional
            Where to write the result, as in :func:`ntt_cy.ntt`.
        workers : int, optional
            Threads, as in :func:`ntt_cy.ntt`.
        reduction : {None, "auto", "montgomery", "barrett", "lazy", "goldilocks"}, optional
            None takes the plan's family.
        bit_reversed : bool, default False
            True: the result in bit-reversed order (skips the permutation; for work
            that only multiplies transforms pointwise).
        assume_reduced : bool, default False
            True: the caller guarantees that every value of `a` is in [0, p) and
            nothing compares them with p, so that no branch and no memory index
            depends on them on 32/64-bit integer input (see "Security and constant
            time" in the guide); a value outside gives a meaningless result.

        Returns
        -------
        ndarray
            The transform (`out` when given): a uint32 or uint64 input that holds
            [0, p) keeps its dtype, any other gets the plan's lanes.

        Raises
        ------
        ValueError
            A length along `axis` other than n, values outside [0, p), or an argument
            :func:`ntt_cy.ntt` refuses.
        TypeError
            As :func:`ntt_cy.ntt`; a non-bool `bit_reversed` or `assume_reduced`.

        See Also
        --------
        inverse : The inverse transform.

        Examples
        --------
        >>> import ntt_cy
        >>> plan = ntt_cy.NTTPlan(4, 17)
        >>> plan.forward([1, 2, 3, 4]).tolist(), plan.forward([1, 2, 3, 4], bit_reversed=True).tolist()
        ([10, 6, 15, 7], [10, 15, 6, 7])
        >>> plan([1, 2, 3, 4]).tolist()   # calling a plan is forward
        [10, 6, 15, 7]
        """
        if self._row_tables is not None and reduction is None:
            result = self._row_call(a, axis, out, workers, bit_reversed, True, assume_reduced)
            if result is not None:
                return result
        trusted = assume_reduced is not False and _checks.check_flag(assume_reduced,
                                                                     "assume_reduced")
        return self._transform(a, axis, out, workers, reduction, bit_reversed, True,
                               assume_reduced=trusted)

    def inverse(self, a: npt.ArrayLike, *, axis: Integer = -1, out: IntegerArray | None = None,
                workers: Integer | None = None, reduction: Reduction | None = None,
                bit_reversed: bool = False, assume_reduced: bool = False) -> IntegerArray:
        """Normalised inverse NTT along `axis`: ``inverse(forward(x)) == x``.

        Parameters
        ----------
        a : array_like of integers
            Transform values in [0, p), natural order, or bit-reversed order with
            ``bit_reversed=True`` (the order ``forward(..., bit_reversed=True)`` gives).
        axis : int, default -1
            Axis to transform; its length must be n.
        out : ndarray, optional
            Where to write the result, as in :func:`ntt_cy.ntt`.
        workers : int, optional
            Threads, as in :func:`ntt_cy.ntt`.
        reduction : {None, "auto", "montgomery", "barrett", "lazy", "goldilocks"}, optional
            None takes the plan's family.
        bit_reversed : bool, default False
            Whether `a` is in bit-reversed order.
        assume_reduced : bool, default False
            As in :meth:`forward`.

        Returns
        -------
        ndarray
            The inverse transform in natural order (`out` when given), dtype as
            :meth:`forward` gives it.

        Raises
        ------
        ValueError, TypeError
            As :meth:`forward`.

        See Also
        --------
        forward : The forward transform.

        Examples
        --------
        >>> import ntt_cy
        >>> plan = ntt_cy.NTTPlan(4, 17)
        >>> plan.inverse(plan.forward([1, 2, 3, 4])).tolist()
        [1, 2, 3, 4]
        >>> plan.inverse(plan.forward([1, 2, 3, 4], bit_reversed=True), bit_reversed=True).tolist()
        [1, 2, 3, 4]
        """
        if self._row_tables is not None and reduction is None:
            result = self._row_call(a, axis, out, workers, bit_reversed, False, assume_reduced)
            if result is not None:
                return result
        trusted = assume_reduced is not False and _checks.check_flag(assume_reduced,
                                                                     "assume_reduced")
        return self._transform(a, axis, out, workers, reduction, bit_reversed, False,
                               assume_reduced=trusted)

    __call__ = forward

    def _row_call(self, a: object, axis: object, out: object, workers: Integer | None,
                  bit_reversed: object, is_forward: bool, assume_reduced: object
                  ) -> IntegerArray | None:
        """forward / inverse of one row (n < ROW_CALL_BELOW_N) in the plan's family in
        one compiled call (_ntt.plan_row_call reads the arguments' headers), on the
        threads _transform would take, or None for _transform, which checks everything
        and raises."""
        # (workers=None below PARALLEL_MIN_ELEMENTS: row_threads' answer, without the call
        # on the small call's path)
        threads = 1 if workers is None and self.n < PARALLEL_MIN_ELEMENTS \
            else row_threads(workers, self.n)
        if threads == 0:
            return None
        result: IntegerArray | None = _ntt.plan_row_call(
            a, out, self._row_tables, is_forward, bit_reversed, assume_reduced, axis, threads)
        return result

    def _family(self, reduction: Reduction | None) -> str:
        if reduction is None:
            return self.reduction
        if reduction == "auto":
            return self._auto
        return _checks.check_reduction(reduction, self.p, self.dtype)

    def _transform(self, a: npt.ArrayLike, axis: Integer, out: IntegerArray | None,
                   workers: Integer | None, reduction: Reduction | None, bit_reversed: bool,
                   is_forward: bool, dtype: np.dtype[Any] | None = None,
                   assume_reduced: bool = False) -> IntegerArray:
        """The transform of `a`; dtype: the result's dtype when no `out` is given (None:
        result_dtype's choice); assume_reduced: a checked flag, as forward takes it."""
        if out is None and bit_reversed is False and dtype is None:
            result = single_row_transform(self, a, axis, reduction, workers, is_forward,
                                          not assume_reduced)
            if result is not None:
                return result
        elif bit_reversed is not False and bit_reversed is not True \
                and not isinstance(bit_reversed, np.bool_):
            raise TypeError(f"bit_reversed must be a bool, got {type(bit_reversed).__name__}")
        family = self._family(reduction)
        arr = _checks.as_integer_array(a, "a", allow_empty=True)
        axis = _checks.normalize_axis(axis, arr.ndim)
        if arr.shape[axis] != self.n:
            raise ValueError(f"length along axis {axis} is {arr.shape[axis]}, plan expects "
                             f"n = {self.n}")
        if out is not None:
            _checks.check_residue_out(out, arr.shape, self.p, arr)
            result_dt = out.dtype
        elif dtype is not None or arr.dtype is self.dtype:
            result_dt = self.dtype
        else:
            result_dt = _checks.result_dtype(arr.dtype, self.p, self.dtype)
        if arr.size == 0:   # an empty batch: nothing to transform
            check_workers(workers)
            return np.empty(arr.shape, dtype=result_dt) if out is None else out
        # The kernels report the largest input value (the forward's first sweep, the
        # inverse's copy or permutation find it as they read the rows): lanes that need
        # no conversion skip the separate check (~9 us of a 2^17 transform, ~3 us of a
        # small one's call, ~0.1 ms of a 2^20 one: serial, so it also held two threads
        # back), unless they go to `out` in place: the input must be intact when a bad
        # value raises, and an in-place kernel reads values it has already written.  A
        # separate `out` may have been written when the error is raised.
        # (every value is in [0, p) when the largest lane is below `limit`: p, or the
        # sign bit of signed rows for a p above it, int64 rows for Goldilocks say)
        lanes, limit = _checks.unsigned_lanes(arr, self.p)
        # assume_reduced on integer input: the values are converted unchecked (a cast
        # that never compares them) and the kernels' largest value is not looked at
        trusted = assume_reduced and arr.dtype.kind in "iu"
        unchecked = (lanes is not None and lanes.dtype == self.dtype and not trusted
                     and (out is None or not np.may_share_memory(out, arr)))
        last = axis == arr.ndim - 1
        # Write straight into `out` when its layout allows (also the in-place case
        # out is a, where rows and dst are the same memory); never into the input.  A
        # misaligned `out` gets the result through an aligned temporary.
        direct = (out is not None and last and out.flags.c_contiguous
                  and out.flags.aligned and out.dtype.itemsize == self.dtype.itemsize)
        convert = arr.dtype.kind in "iu" and (lanes is None or lanes.dtype != self.dtype)
        if arr.size * 32 >= memory_settings.check_from or family not in self._tables:
            # (32 bytes a value bound the copies below: a small call skips the estimate)
            self._check_memory(arr, family, convert or arr.dtype.kind == "O", last, direct,
                               out is None and result_dt is not self.dtype)
        # A dtype conversion goes to a per-thread scratch buffer: a fresh temporary costs
        # page faults (~0.15 ms for n = 2^17 int64 -> uint32, as much as half the
        # transform).  A batch of rows beyond the buffer's limit converts piece by piece,
        # each piece into the buffer just before its transform.
        threads = effective_threads(workers, arr.size)
        piecewise = (convert and last and arr.flags.c_contiguous
                     and arr.size * self.dtype.itemsize > SCRATCH_LIMIT_BYTES
                     and (out is None or not np.may_share_memory(out, arr)))
        if piecewise:
            src = arr   # (rows of integers, converted by the pieces)
        elif unchecked and lanes is not None:
            src = lanes
        elif trusted and lanes is not None and lanes.dtype == self.dtype:
            src = lanes
        else:
            src = self._lanes(arr, trusted,
                              scratch("lanes", arr.shape, self.dtype) if convert else None)
        kernel = _ntt.TRANSFORMS[self.dtype][is_forward]
        moved = src if last else np.moveaxis(src, axis, -1)
        rows = np.ascontiguousarray(moved).reshape(-1, self.n)
        dst = (out.view(self.dtype).reshape(-1, self.n) if direct and out is not None
               else aligned_empty(rows.shape, self.dtype))
        tables = self.tables(family)
        step = self._piece_rows(rows.shape[0], threads,
                                self.n * self.dtype.itemsize if piecewise else 0)
        if step == rows.shape[0] and not trusted and not piecewise:
            largest = kernel(rows, dst, tables, threads, not bit_reversed)
        else:   # (a long batch: Ctrl-C is answered between pieces, _support/pieces.py;
            # assume_reduced: the kernels are told not to report the largest value)
            largest = 0
            for start, stop in piece_starts(rows.shape[0], step):
                part = rows[start:stop]
                if piecewise:
                    into = scratch("lanes", part.shape, self.dtype)
                    part = self._lanes(part, trusted, into, arr)
                largest = max(largest, kernel(part, dst[start:stop], tables,
                                              threads, not bit_reversed, True, not trusted))
        if unchecked and largest >= limit:
            _checks.integers_to_lanes(arr, self.p, self.dtype, "a", "raise")  # raises
            raise ValueError(f"a has values outside [0, p) for p = {self.p}")
        result = dst.reshape(moved.shape)
        if not last:
            result = np.moveaxis(result, -1, axis)
        if out is None:
            return result if result_dt is self.dtype else result.astype(result_dt)
        if not direct:
            out[...] = result   # (values in [0, p), which out's dtype holds)
        return out

    def _piece_rows(self, rows: int, threads: int, row_scratch: int = 0) -> int:
        """Rows per kernel call of a transform of `rows` rows (piece_rows; all of them
        below PIECES_FROM elements, without estimating); row_scratch as piece_rows."""
        if rows < 2 or rows * self.n < PIECES_FROM:
            return rows
        from ntt_cy._routing import transform_costs   # (imports this module)

        ns, u64_ratio = transform_costs()
        row_ns = ns * self.n * max(self.n.bit_length() - 1, 1) \
            * (u64_ratio if self.dtype.itemsize == 8 else 1.0)
        return piece_rows(rows, row_ns, threads, self.n * self.dtype.itemsize, row_scratch)

    def _lanes(self, arr: npt.NDArray[Any], trusted: bool, into: npt.NDArray[Any] | None,
               whole: npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """The integer array `arr` as the plan's lanes (integer_lanes, values outside
        [0, p) raised), in `into` (arr's shape and the lanes' dtype) where a conversion
        is needed.  trusted (assume_reduced, an array that needs the conversion): a cast
        into `into` that never compares the values.  whole: the array arr is a piece of
        (the message names its minimum or maximum)."""
        if trusted and into is not None:
            np.copyto(into, arr, casting="unsafe")
            return into
        if whole is not None:
            try:
                return integer_lanes(arr, self.p, self.dtype, "a", "raise", into)
            except ValueError:
                _checks.integers_to_lanes(whole, self.p, self.dtype, "a", "raise")
                raise
        return integer_lanes(arr, self.p, self.dtype, "a", "raise", into)

    def _check_memory(self, arr: npt.NDArray[Any], family: str, convert: bool, last: bool,
                      direct: bool, widen: bool) -> None:
        """check_memory for a transform of `arr`: the converted lanes, the contiguous
        rows (another axis than the last, or a strided array), the result when it is
        not written into `out`, its widened copy (widen: another dtype than the
        lanes'), and the family's tables when they are still to be built."""
        lane_bytes = arr.size * self.dtype.itemsize
        copies = convert + (not last or not arr.flags.c_contiguous) + (not direct)
        need = copies * lane_bytes + (arr.size * 8 if widen else 0)
        if family not in self._tables:
            need += self.table_bytes(family)
        check_memory(need, "a transform of shape {} on {} lanes", arr.shape, self.dtype)


def row_threads(workers: Integer | None, n: int) -> int:
    """The threads the general route gives one row of n values (effective_threads), or
    0 where `workers` is not a count it takes: the one-row calls then leave the call to
    the general route, which raises in its own order."""
    try:
        threads = effective_threads(workers, n)
    except (TypeError, ValueError):
        return 0
    if n >= PARALLEL_MIN_ELEMENTS and n * 32 >= memory_settings.check_from:
        return 0   # (a set_memory_limit: the general route estimates the call's memory)
    return threads


def single_row_transform(plan: NTTPlan, a: object, axis: Integer,
                         reduction: Reduction | None, workers: Integer | None,
                         is_forward: bool, checked: bool = True,
                         out: IntegerArray | None = None) -> IntegerArray | None:
    """plan's transform of a 1-D ndarray, list or tuple `a` of n < ROW_CALL_BELOW_N
    values in one compiled call, on the threads the general route would take (one below
    PARALLEL_MIN_ELEMENTS), natural order into a fresh array or into `out` (a row
    _ntt.transform_row writes straight into, `a` itself included: the layers of
    _transform cost ~4 us, 10-20 times the butterflies of n = 256); None for the
    general route, which also raises every error in its own order.  checked=False: the
    caller guarantees values in [0, p), which are then never compared with p
    (_ntt.transform_row)."""
    if type(a) is list or type(a) is tuple:   # (read as ntt() reads them)
        a = _checks.single_row_operand(a, ROW_CALL_BELOW_N)
    if type(a) is not np.ndarray or a.ndim != 1 or a.dtype.kind not in "iu" \
            or a.shape[0] != plan.n \
            or plan.n >= ROW_CALL_BELOW_N or type(axis) is not int \
            or not -1 <= axis <= 0 or not (reduction is None or type(reduction) is str):
        return None
    threads = row_threads(workers, plan.n)
    if threads == 0:
        return None
    try:
        tables = plan.tables(plan._family(reduction))
    except ValueError:
        return None
    dt = a.dtype
    # a uint32 / uint64 input keeps its dtype: the lanes' row is then a temporary, in a
    # scratch buffer (a fresh one, then its widened copy, made glibc trim and fault
    # both in again on every call)
    widen = (out is None and dt is not plan.dtype and dt.kind == "u"
             and plan.p <= 1 << (8 * dt.itemsize))
    into = scratch("transform_rows", (plan.n,), plan.dtype) if widen else out
    result: IntegerArray | None = _ntt.transform_row(a, tables, is_forward, checked, True, into,
                                                     threads)
    if result is None or out is not None:
        return result
    return result.astype(dt) if widen else result


def plan_from_parameters(cls: Callable[..., _Plan], n: int, p: int, dtype_name: str, kind: Kind,
                         reduction: Reduction, root: int) -> _Plan:
    """A plan of class `cls` (this module's NTTPlan, ntt_cy.cuda's, or a subclass) from
    the parameters its __reduce__ gives: how plans are pickled and copied."""
    return cls(n, p, dtype=np.dtype(dtype_name), kind=kind, reduction=reduction, root=root)


# ntt / intt's compiled one-row call (_ntt.cached_row_call): (n, p, kind) -> the
# tables of cached_plan(n, p, None, kind, None) in its own family, kept once a call of
# the general one-row route has built them (remember_row_tables), at most
# ROW_TABLES_LIMIT, the oldest dropped first.  Lookups take no lock (one dict access
# is atomic); changes of size are made under _row_tables_lock (finding the oldest key
# iterates the dict, which another thread's insertion would invalidate).
ROW_TABLES_LIMIT = 64
row_tables_by_key: dict[tuple[int, int, str], Any] = {}
_row_tables_lock = threading.Lock()


def remember_row_tables(plan: NTTPlan, kind: str) -> None:
    """Keep plan's one-row tables (once built) for ntt / intt's compiled call; plan is
    cached_plan(plan.n, plan.p, None, kind, None)."""
    tables = plan._row_tables
    key = (plan.n, plan.p, kind)
    if tables is None or plan.n >= PARALLEL_MIN_ELEMENTS or row_tables_by_key.get(key) is tables:
        return   # (cached_row_call runs one thread: longer rows take single_row_transform)
    with _row_tables_lock:
        while len(row_tables_by_key) >= ROW_TABLES_LIMIT:
            del row_tables_by_key[next(iter(row_tables_by_key))]
        row_tables_by_key[key] = tables


def integer_lanes(arr: npt.NDArray[Any], p: int, dt: np.dtype[Any], name: str,
                  on_range: str, into: npt.NDArray[Any] | None) -> npt.NDArray[Any]:
    """checks.integers_to_lanes (values outside [0, p) raised or reduced, as on_range
    says; `into`: where a conversion writes), with 8-byte integers to uint32 lanes in one
    compiled pass that reports the largest value (numpy's maximum, then its cast, took
    two); only a value outside [0, p) then takes the general conversion."""
    wide, limit = _checks.unsigned_lanes(arr, p)
    if (into is not None and wide is not None and wide.dtype.itemsize == 8
            and dt.itemsize == 4 and arr.flags.c_contiguous
            and _ntt.narrow_to_u32(wide.reshape(-1), into.reshape(-1)) < limit):
        return into
    return _checks.integers_to_lanes(arr, p, dt, name, on_range, into)


@lru_cache(maxsize=64)
def cached_plan(n: int, p: int, dtype_name: str | None, kind: Kind, root: int | None) -> NTTPlan:
    """The plan cache behind get_plan, for callers whose n and p are already exact ints
    and kind a str (dtype_name: None or a lane dtype's name; root: None or an int).
    NTTPlan validates everything; failed constructions are not cached."""
    return NTTPlan(n, p, dtype=dtype_name, kind=kind, root=root)


def get_plan(n: Integer, p: Integer, *, dtype: npt.DTypeLike | None = None, kind: Kind = "cyclic",
             root: Integer | None = None) -> NTTPlan:
    """A cached plan per (n, p, kind, lane width, root); reduction is chosen per call."""
    if dtype is None and root is None and type(n) is int and type(p) is int and type(kind) is str:
        return cached_plan(n, p, None, kind, None)   # nothing to convert: the common call
    # Exact int keys only: 998244353.0 == 998244353 would otherwise hit the cache.
    n, p = _checks.as_int(n, "n"), _checks.as_int(p, "p")
    _checks.check_kind(kind)  # before the cache: an unhashable kind must be a ValueError
    dtype_name = None if dtype is None else np.dtype(dtype).name
    root = None if root is None else _checks.as_int(root, "root")
    return cached_plan(n, p, dtype_name, kind, root)
