"""The functions ntt_cy.dask's tasks run on each block (numpy in, numpy out).

They live in an importable module so that worker processes (started by spawn) can
unpickle the tasks, and they take only plain parameters (ints, strings, tuples):
plans, twiddle tables and CRT bases are rebuilt, once per process, from those
parameters where they are used, never shipped with the graph.  Every kernel call
runs on `threads` OpenMP threads (the task's own share of the machine).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

import ntt_cy
from ntt_cy.modular import modulus_lanes, mul_mod
from ntt_cy._kernels.twiddle import multiply_twiddles
from ntt_cy._support import checks as _checks


def check_lanes(block: np.ndarray, p: int, name: str) -> np.ndarray:
    """The block as lanes of p, raising ValueError (as ntt_cy.ntt does) for values
    outside [0, p)."""
    return _checks.as_lane_array(block, p, modulus_lanes(p), name, "raise")


def transform(block: np.ndarray, p: int, axis: int, kind: str, root, reduction: str,
              inverse: bool, threads: int) -> np.ndarray:
    """ntt_cy.ntt (or intt) of the block along `axis`."""
    fn = ntt_cy.intt if inverse else ntt_cy.ntt
    return fn(block, p, axis=axis, kind=kind, root=root, reduction=reduction, workers=threads)


def twiddle(block: np.ndarray, p: int, w: int, row0: int, col0: int,
            threads: int) -> np.ndarray:
    """block[i, j] * w**((row0 + i) * (col0 + j)) mod p (a fresh array): the four-step's
    twiddle multiplication, its factors generated in the kernel from the block's
    offsets."""
    out = np.array(block, dtype=modulus_lanes(p), order="C", copy=True)
    multiply_twiddles(out, p, w, row0, col0, threads)
    return out


def first_pass(block: np.ndarray, p: int, w_rows: int, w: int, inverse: bool,
               threads: int, block_info=None) -> np.ndarray:
    """The four-step's first pass on a block holding whole columns (forward) or whole
    rows (inverse): the short transforms, then the twiddle factors of its offsets."""
    (row0, _), (col0, _) = block_info[0]["array-location"]
    if inverse:   # rows of Z: length-n2 inverses along axis 1, then w**-(k1 j2)
        out = transform(block, p, 1, "cyclic", w_rows, "auto", True, threads)
    else:         # columns of X: length-n1 transforms along axis 0, then w**(k1 j2)
        out = transform(check_lanes(block, p, "x"), p, 0, "cyclic", w_rows, "auto", False,
                        threads)
    return twiddle(out, p, w, row0, col0, threads)


def twist(block: np.ndarray, p: int, psi: int, check: bool, threads: int,
          block_info=None) -> np.ndarray:
    """block[i] * psi**(start + i) mod p for a 1-D block starting at `start` (the
    negacyclic twist, its factors generated from the block's offset)."""
    (start, _), = block_info[0]["array-location"]
    values = check_lanes(block, p, "x") if check else block
    return twiddle(values.reshape(1, -1), p, psi, 1, start, threads).reshape(-1)


def multiply(a: np.ndarray, b: np.ndarray, p: int, threads: int) -> np.ndarray:
    """a * b mod p element-wise (the transform-domain product)."""
    return mul_mod(a, b, p, workers=threads)


def reduce_to(block: np.ndarray, m: int) -> np.ndarray:
    """Any integers mod m: uint64 lanes below 2**64 (values in [0, m)), else an object
    array of Python ints."""
    if m < 1 << 64:
        return _checks.as_lane_array(block, m, np.dtype(np.uint64), "a", "reduce")
    arr = _checks.as_integer_array(block, "a")
    out = np.empty(arr.shape, dtype=object)
    out.flat[:] = [int(v) % m for v in arr.flat]
    return out


def residues(block: np.ndarray, primes: tuple, lanes: str, m: int,
             threads: int) -> np.ndarray:
    """Values already in [0, m) (uint64 lanes or Python ints) mod every CRT prime:
    (k, count) uint64, row j mod primes[j]."""
    if block.dtype == object:
        return _basis(primes, lanes).residues_of_ints(block, m, threads)
    out = np.empty((len(primes), block.shape[0]), dtype=np.uint64)
    for j, p in enumerate(primes):
        out[j] = block % np.uint64(p) if m > p else block
    return out


def product_rows(a: np.ndarray, b: np.ndarray, m: int, kind: str, threads: int) -> np.ndarray:
    """ntt_cy.polymul of corresponding rows (a batch block)."""
    return ntt_cy.polymul(a, b, m, kind=kind, workers=threads)


def wrap_add(head: np.ndarray, tail: np.ndarray, m: int, negacyclic: bool) -> np.ndarray:
    """(head + tail) or (head - tail) mod m for values in [0, m) (a product folded
    modulo x^n - 1 or x^n + 1): exact also where a sum passes 2**64."""
    if head.dtype == object:
        return (head - tail if negacyclic else head + tail) % m
    x = head.astype(np.uint64)
    y = tail.astype(np.uint64)
    mm = np.uint64(m)
    if negacyclic:
        out = np.where(x < y, x - y + mm, x - y)
    else:
        s = x + y
        out = np.where((s < x) | (s >= mm), s - mm, s)
    return out.astype(head.dtype)


@lru_cache(maxsize=32)
def _basis(primes: tuple, lanes: str):
    from ntt_cy._crt import crt_basis

    return crt_basis(primes, np.dtype(lanes))


def garner(stacked: np.ndarray, primes: tuple, lanes: str, m: int, threads: int) -> np.ndarray:
    """Coefficients mod m from their residues mod the CRT primes, stacked as (k, count):
    Garner's digits, then the reduction mod m (object output for m >= 2**64)."""
    basis = _basis(primes, lanes)
    res = np.ascontiguousarray(stacked, dtype=np.uint64)
    if res.shape[1] == 0:
        return np.empty(0, dtype=object if m >= 1 << 64 else _output_dtype(m))
    digits = basis.digits(res, threads, out=res)
    if m >= 1 << 64:
        return basis.reduce_ints(digits, m, threads).reshape(-1)
    return basis.reduce(digits, m, threads).reshape(-1).astype(_output_dtype(m))


def _output_dtype(m: int) -> np.dtype:
    return np.dtype(np.uint32) if m <= 1 << 32 else np.dtype(np.uint64)
