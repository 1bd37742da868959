"""One row: polymul of two 1-D integer arrays in one compiled call.

A product of two 1-D integer arrays whose transforms have fewer than ROW_CALL_BELOW_N
values goes through a product prepared once per (len a, len b, m, kind): its route
(_routing.single_row_route), plan and constants bound in a compiled object whose
`product(a, b)` checks both arrays' headers, runs the whole route in one call (on the
threads the general route would take: one below PARALLEL_MIN_ELEMENTS) and returns the
result, or None for the general route (other dtypes, strided arrays, values >= m).  The layers of the general route cost ~8 us for a linear
product and ~25 us for a wrapped one, more than the arithmetic of any product below
n ~ 100.  The prepared products (ntt_cy._kernels.active's SingleRowWrapped,
SingleRowProduct, SingleRowCRT; _kernels.schoolbook's SingleRowSchoolbook) are exact
whichever route they take: the route changes only the time.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels import schoolbook as _schoolbook
from ntt_cy._products import barrett_constants, plan_for
from ntt_cy._routing import clear_caches, single_row_route
from ntt_cy._support.threads import PARALLEL_MIN_ELEMENTS, check_workers
from ntt_cy.plan import row_threads

if TYPE_CHECKING:
    import numpy.typing as npt

    from ntt_cy._typing import Integer

__all__ = ["single_row_product", "prepare", "clear_route_caches", "prepared_products",
           "prepared_threaded", "PREPARED_LIMIT"]

# Prepared products kept, the oldest dropped first: each holds its plan's tables (up to
# ~0.35 MB at N = 4096), as many as the plan cache (_products.plan_for) keeps.
PREPARED_LIMIT = 128
# (na, nb, m, kind) -> the compiled product, or None: the products of fewer than
# PARALLEL_MIN_ELEMENTS transform values, which run on one thread whatever `workers`
# says (polymul's repeated calls find them from compiled code: cached_product_call)...
prepared_products = {}
# ... and the longer ones, which run on the threads `workers` gives (found here)
prepared_threaded = {}
# Held while prepared_products changes size (insertion, eviction, clearing): finding the
# oldest key iterates the dict, which another thread's insertion would invalidate.
# Lookups take no lock (one dict access is atomic).
_prepared_lock = threading.Lock()
# The kernels' wrap codes (ntt_cy/_kernels/ntt/single_row.pxd: LINEAR, CYCLIC, NEGACYCLIC).
WRAP_CODES = {"linear": 0, "cyclic": 1, "negacyclic": 2}


def single_row_product(a: npt.NDArray[Any], b: npt.NDArray[Any], m: int, kind: str,
                       workers: Integer | None, checked: bool = True
                       ) -> npt.NDArray[Any] | None:
    """polymul(a, b, m, kind=kind, workers=workers) for 1-D ndarrays, an int m and a
    str kind, or None (the general route then computes it, and raises its errors).
    checked=False (polymul's assume_reduced): values taken to be in [0, m), never
    compared with m."""
    key = (a.shape[0], b.shape[0], m, kind)
    product = prepared_products.get(key, False)
    if product is False:
        product = prepared_threaded.get(key, False)
    if product is False:
        if not 2 <= m < 1 << 64 or kind not in WRAP_CODES:
            return None   # (never kept: a huge modulus would be kept alive by its key)
        product = prepare(*key)   # (outside the lock: a plan's tables take a while)
        kept = prepared_threaded if _transform_length(product) >= PARALLEL_MIN_ELEMENTS \
            else prepared_products
        with _prepared_lock:
            while len(kept) >= PREPARED_LIMIT:
                del kept[next(iter(kept))]
            kept[key] = product
    if product is None:
        return None
    if a.dtype.itemsize != b.dtype.itemsize:   # e.g. int64 and a product's uint32
        a, b = _eight_byte(a), _eight_byte(b)
    n = _transform_length(product)
    if n < PARALLEL_MIN_ELEMENTS:
        check_workers(workers)
        return product.product(a, b, checked)
    threads = row_threads(workers, n)   # (0: a set memory limit, or bad workers)
    return product.product(a, b, checked, threads) if threads else None


def _eight_byte(x: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A 1-D integer array of fewer than 8 bytes a value as 8-byte values of the same
    signedness (a copy of len(x) values, ~1 us per 8192: the prepared products read both
    operands at one width, and the general route costs far more); anything else as
    it is, for the product to take or decline."""
    if x.dtype.kind in "iu" and x.dtype.itemsize < 8:
        return x.astype(np.int64 if x.dtype.kind == "i" else np.uint64)
    return x


def _transform_length(product):
    """A prepared product's transform length: 0 for the schoolbook's (one thread) and
    for None."""
    return getattr(product, "n", 0)


def prepare(na, nb, m, kind="linear"):
    """The compiled product of one row of lengths na, nb mod m (kind "linear", "cyclic"
    or "negacyclic"), or None where its route is not one call."""
    route = single_row_route(na, nb, m, kind)
    if route is None:
        return None
    if route.path == "direct" and route.kind != "linear":   # transforms of length n
        plan = plan_for(na, m, None, kind)
        return _ntt.SingleRowWrapped(plan.tables(plan.reduction))
    wrap = WRAP_CODES[route.fold or "linear"]
    if route.path == "schoolbook":
        return _schoolbook.SingleRowSchoolbook(na, nb, m, *barrett_constants(m), wrap)
    if route.path == "direct":
        plan = plan_for(route.length, m, None, "cyclic")
        return _ntt.SingleRowProduct(plan.tables(plan.reduction), na, nb, wrap)
    return _ntt.SingleRowCRT(route.basis.fused_product32(route.length, m), na, nb, wrap)


def clear_route_caches():
    """Forget the cached routes (ntt_cy/_routing.py) and the single-row products
    prepared from them: for code (tests, calibration) that changes the cost model."""
    clear_caches()
    with _prepared_lock:
        prepared_products.clear()
        prepared_threaded.clear()
