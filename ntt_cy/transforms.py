"""ntt / intt: the numpy-style function interface over cached plans."""
from __future__ import annotations

from ntt_cy import _checks
from ntt_cy._threads import check_workers
from ntt_cy.plan import get_plan

__all__ = ["ntt", "intt"]

BACKENDS = ("cpu", "cuda")


def _plan_for(a, p, axis, kind, dtype, root):
    """(a as a validated integer ndarray, its cached plan): converted once, here."""
    a = _checks.as_integer_array(a)
    n = a.shape[_checks.normalize_axis(axis, a.ndim)]
    return a, get_plan(n, p, dtype=dtype, kind=kind, root=root)


def _check_backend(backend):
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    return backend


def ntt(a, p, *, axis=-1, out=None, workers=None, kind="cyclic", reduction="auto",
        dtype=None, root=None, backend="cpu"):
    """Forward number-theoretic transform modulo the prime `p` along `axis`.

    A[k] = sum_i a[i] w^(i k) mod p (cyclic), or sum_i a[i] psi^i w^(i k) with
    w = psi^2 (negacyclic), w a primitive n-th root of unity.  Output in natural
    order, dtype uint32 (p < 2**32) or uint64.  Values of `a` must lie in [0, p):
    anything else raises ValueError.  See :class:`ntt_cy.NTTPlan` for the parameters.
    """
    if _check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return cuda.ntt(a, p, axis=axis, out=out, kind=kind, reduction=reduction,
                         dtype=dtype, root=root)
    a, plan = _plan_for(a, p, axis, kind, dtype, root)
    return plan.forward(a, axis=axis, out=out, workers=workers, reduction=reduction)


def intt(a, p, *, axis=-1, out=None, workers=None, kind="cyclic", reduction="auto",
         dtype=None, root=None, backend="cpu"):
    """Inverse of :func:`ntt` (normalised: ``intt(ntt(x, p), p) == x``)."""
    if _check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return cuda.intt(a, p, axis=axis, out=out, kind=kind, reduction=reduction,
                         dtype=dtype, root=root)
    a, plan = _plan_for(a, p, axis, kind, dtype, root)
    return plan.inverse(a, axis=axis, out=out, workers=workers, reduction=reduction)
