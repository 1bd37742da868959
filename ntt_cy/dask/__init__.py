"""ntt_cy on dask arrays: batched and huge transforms and products beyond one machine.

    import ntt_cy.dask            # needs the extra: pip install "ntt_cy[dask]"
    ntt_cy.dask.ntt(x, p)         # many transforms, one task per block (axis in one chunk)
    ntt_cy.dask.ntt_large(x, p)   # ONE transform longer than a chunk (four-step)
    ntt_cy.dask.polymul(a, b, m)  # batched rows, or one huge product, modulo any m

Everything is lazy: these functions build a dask graph (deterministic task names,
correct dtype and meta) and compute nothing; ``.compute()`` runs it on the active
scheduler, a distributed.Client's cluster included.  Inside each task the kernels use
``threads`` OpenMP threads (default 1), so P worker processes x T threads never
oversubscribe the machines.  See docs/dask.md.

Examples
--------
>>> import dask.array as da, numpy as np, ntt_cy, ntt_cy.dask
>>> x = da.from_array(np.arange(32, dtype=np.uint32).reshape(4, 8), chunks=(1, 8))
>>> X = ntt_cy.dask.ntt(x, 998244353)   # lazy: nothing computed yet
>>> X.shape, X.dtype.name, X.numblocks
((4, 8), 'uint32', (4, 1))
>>> bool((ntt_cy.dask.intt(X, 998244353).compute() == x.compute()).all())
True
"""
try:
    import dask.array  # noqa: F401
except ImportError as exc:   # pragma: no cover - the extra is installed in the tests
    raise ImportError("ntt_cy.dask needs dask: pip install \"ntt_cy[dask]\"") from exc

from ntt_cy.dask.four_step import intt_large, ntt_large
from ntt_cy.dask.products import polymul
from ntt_cy.dask.transforms import intt, ntt

__all__ = ["ntt", "intt", "ntt_large", "intt_large", "polymul"]
