"""ntt / intt: the numpy-style function interface over cached plans."""
from __future__ import annotations

import numpy as np

from ntt_cy._support import checks as _checks
from ntt_cy._support.checks import check_backend
from ntt_cy._support.threads import PARALLEL_MIN_ELEMENTS, check_workers
from ntt_cy.plan import cached_plan, get_plan, single_row_transform


__all__ = ["ntt", "intt"]


def _plan_for(a, p, axis, kind, dtype, root):
    """(a as a validated integer ndarray, its cached plan): converted once, here."""
    a = _checks.as_integer_array(a)
    n = a.shape[_checks.normalize_axis(axis, a.ndim)]
    return a, get_plan(n, p, dtype=dtype, kind=kind, root=root)


def _single_row(a, p, axis, kind, reduction, workers, is_forward):
    """ntt / intt of a small 1-D ndarray, list or tuple with the default plan
    (plan.single_row_transform), or None for the general route."""
    if type(p) is not int or type(kind) is not str:
        return None
    a = _checks.single_row_operand(a, PARALLEL_MIN_ELEMENTS)
    if a is None or a.dtype.kind not in "iu":
        return None   # (before the plan: tables are not built for an input refused anyway)
    try:
        plan = cached_plan(a.shape[0], p, None, kind, None)
    except (ValueError, TypeError):
        return None   # the general route raises it, after its checks of `a`
    return single_row_transform(plan, a, axis, reduction, workers, is_forward)


def ntt(a, p, *, axis=-1, out=None, workers=None, kind="cyclic", reduction="auto",
        dtype=None, root=None, backend="cpu"):
    """Forward number-theoretic transform modulo the prime `p` along `axis`.

    A[k] = sum_i a[i] w^(i k) mod p (cyclic), or sum_i a[i] psi^i w^(i k) with
    w = psi^2 (negacyclic), w a primitive n-th root of unity.

    Parameters
    ----------
    a : array_like of integers
        Values in [0, p) (anything else raises ValueError, nothing is reduced); any
        integer dtype, lists, Python ints; N-D arrays transform along `axis`, every
        other axis a batch.  Never modified unless passed as `out` too.
    p : int
        Prime modulus below 2**64 with n | p - 1 (2n | p - 1 for negacyclic).
    axis : int
        Axis to transform (negative counts from the end); its length n is a power of two.
    out : ndarray, optional
        Result array of the input's shape and the lane dtype, writable, C-contiguous
        or not; ``out=a`` transforms in place.  A fresh array when None.
    workers : int, optional
        Threads: None or -1 every core, k > 0 exactly k.  Jobs under 8192 values run
        on one thread, and so does every call in a child forked after this process
        ran threads (libgomp's threads do not survive fork).
    kind : {"cyclic", "negacyclic"}
    reduction : {"auto", "montgomery", "barrett", "lazy"}
        Butterfly family; every family gives identical results (ntt_cy.NTTPlan).
    dtype : {None, numpy.uint32, numpy.uint64}
        Lane width; None picks uint32 when p < 2**32.
    root : int, optional
        A primitive n-th (negacyclic: 2n-th) root of unity instead of the default.
    backend : {"cpu", "cuda"}
        "cuda" runs on the GPU through PyCUDA (ntt_cy.cuda), same checks and results.

    Returns
    -------
    ndarray of the lane dtype, natural order (`out` when given).
    """
    if check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return cuda.ntt(a, p, axis=axis, out=out, kind=kind, reduction=reduction,
                         dtype=dtype, root=root)
    if out is None and dtype is None and root is None:
        result = _single_row(a, p, axis, kind, reduction, workers, True)
        if result is not None:
            return result
    a, plan = _plan_for(a, p, axis, kind, dtype, root)
    return plan.forward(a, axis=axis, out=out, workers=workers, reduction=reduction)


def intt(a, p, *, axis=-1, out=None, workers=None, kind="cyclic", reduction="auto",
         dtype=None, root=None, backend="cpu"):
    """Inverse of :func:`ntt` (normalised: ``intt(ntt(x, p), p) == x``); the same
    parameters, `a` the transform values in natural order."""
    if check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return cuda.intt(a, p, axis=axis, out=out, kind=kind, reduction=reduction,
                         dtype=dtype, root=root)
    if out is None and dtype is None and root is None:
        result = _single_row(a, p, axis, kind, reduction, workers, False)
        if result is not None:
            return result
    a, plan = _plan_for(a, p, axis, kind, dtype, root)
    return plan.inverse(a, axis=axis, out=out, workers=workers, reduction=reduction)
