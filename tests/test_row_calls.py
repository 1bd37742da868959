"""The compiled one-call paths of small 1-D calls: NTTPlan.forward / inverse once the
plan's tables are built (plan_row_call; rows up to ROW_CALL_BELOW_N, on the threads the
general route resolves), ntt / intt once a call has kept the default plan's tables
(cached_row_call, one thread) or into a fresh array (transform_row), polymul once its
product is prepared (cached_product_call).  Each gives the general route's result bit for bit in every
out / order / dtype form, leaves its inputs intact, and declines whatever it does not
read, so that a bad argument raises the general route's error, message and all."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy import NTTPlan
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.threads import MAX_WORKERS, PARALLEL_MIN_ELEMENTS, effective_threads
from ntt_cy._kernels.active import ACTIVE_ISA
from ntt_cy._single_row import prepare, prepared_products, prepared_threaded
from ntt_cy.plan import ROW_CALL_BELOW_N, row_tables_by_key

# (p, kind, lengths): uint32 and uint64 lanes, the lattice moduli, Goldilocks
CASES = [(998244353, "cyclic", (1, 2, 16, 256, 1024, 4096)),
         (1337006139375617, "cyclic", (1, 8, 256, 2048)),
         (8380417, "negacyclic", (256,)), (12289, "negacyclic", (512, 1024)),
         (2**64 - 2**32 + 1, "cyclic", (4, 256))]


def _warm(p, kind, n):
    """A plan whose one-row tables are built, and ntt / intt's kept for (n, p, kind)."""
    plan = NTTPlan(n, p, kind=kind)
    plan.forward(np.zeros(n, plan.dtype))
    ntt_cy.ntt(np.zeros(n, plan.dtype), p, kind=kind)
    assert plan._row_tables is not None and (n, p, kind) in row_tables_by_key
    return plan


def _dtypes(p):
    """Input / out dtypes that hold [0, p)."""
    return [dt for dt in (np.uint32, np.int32, np.uint64, np.int64)
            if p <= 2**(8 * np.dtype(dt).itemsize - (np.dtype(dt).kind == "i"))]


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("p,kind,lengths", CASES)
def test_plan_calls_equal_the_general_route(p, kind, lengths):
    rng = np.random.default_rng(p % 1013)
    for n in lengths:
        plan = _warm(p, kind, n)
        x = rng.integers(0, min(p, 2**63), n, dtype=np.uint64)
        x[-1] = p - 1
        for dt in _dtypes(p):
            a = x.astype(dt)
            before = a.copy()
            for forward in (True, False):
                method = plan.forward if forward else plan.inverse
                for br in (False, True):
                    # reduction= given: the general route, same family
                    expect = method(a, bit_reversed=br, reduction=plan.reduction)
                    got = method(a, bit_reversed=br)
                    assert got.dtype == expect.dtype and np.array_equal(got, expect)
                    assert _ntt.plan_row_call(a, None, plan._row_tables, forward, br, False,
                                              -1) is not None or a.itemsize != plan.dtype.itemsize \
                        and a.dtype.kind == "i" and p > 2**31
                    for out_dt in _dtypes(p):
                        out = np.full(n, 7, out_dt)
                        assert method(a, bit_reversed=br, out=out) is out
                        assert np.array_equal(out, expect), (n, dt, out_dt, forward, br)
                        trusted = method(a, bit_reversed=br, out=np.empty(n, out_dt),
                                         assume_reduced=True)
                        assert np.array_equal(trusted, expect)
                    assert np.array_equal(a, before)
                    if a.itemsize == plan.dtype.itemsize:   # in place
                        inplace = a.copy()
                        assert method(inplace, bit_reversed=br, out=inplace) is inplace
                        assert np.array_equal(inplace, expect)
            # the axis as an int, -1 or 0, and workers
            assert np.array_equal(plan.forward(a, axis=0, workers=1),
                                  plan.forward(a, reduction=plan.reduction))


@pytest.mark.parametrize("p,kind,lengths", CASES)
def test_ntt_intt_calls_equal_the_general_route(p, kind, lengths):
    rng = np.random.default_rng(p % 1019)
    for n in lengths:
        _warm(p, kind, n)
        x = rng.integers(0, min(p, 2**63), n, dtype=np.uint64)
        x[0] = p - 1
        for dt in _dtypes(p):
            a = x.astype(dt)
            before = a.copy()
            for fn in (ntt_cy.ntt, ntt_cy.intt):
                expect = fn(a, p, kind=kind, n=n)   # n= given: the general route
                assert _ntt.cached_row_call(a, p, kind, row_tables_by_key, fn is ntt_cy.ntt,
                                            None, False, -1, "auto", None) is not None \
                    or a.itemsize != np.dtype(ntt_cy.NTTPlan(n, p, kind=kind).dtype).itemsize
                got = fn(a, p, kind=kind)
                assert got.dtype == expect.dtype and np.array_equal(got, expect)
                out = np.empty(n, a.dtype if a.dtype.kind == "u" else np.uint64)
                assert fn(a, p, kind=kind, out=out, workers=1) is out
                assert np.array_equal(out, expect)
                assert np.array_equal(fn(a, p, kind=kind, assume_reduced=True), expect)
                assert np.array_equal(a, before)



@pytest.mark.parametrize("p,kind,n", [(998244353, "cyclic", 1024), (12289, "negacyclic", 512),
                                      (2**64 - 2**32 + 1, "cyclic", 256),
                                      (998244353, "cyclic", 16384)])
def test_ntt_intt_with_out_take_the_one_row_route_from_the_first_call(p, kind, n,
                                                                      monkeypatch):
    # a caller that always passes out= (no call without it keeps the tables first):
    # the first call into out takes the one-row route and keeps the tables, the next
    # ones cached_row_call (below PARALLEL_MIN_ELEMENTS); none reaches the general route
    rng = np.random.default_rng(n)
    a = rng.integers(0, p, n, dtype=np.uint64).astype(NTTPlan(n, p).dtype)
    expect = {fn: fn(a, p, kind=kind, n=n) for fn in (ntt_cy.ntt, ntt_cy.intt)}
    row_tables_by_key.pop((n, p, kind), None)

    def general_route(*args):
        raise AssertionError("the general route was taken")

    monkeypatch.setattr(ntt_cy.transforms, "_transform", general_route)
    for fn in (ntt_cy.ntt, ntt_cy.intt, ntt_cy.ntt):
        out = np.full(n, 3, a.dtype)
        assert fn(a, p, kind=kind, out=out) is out
        assert np.array_equal(out, expect[fn])
        inplace = a.copy()
        assert fn(inplace, p, kind=kind, out=inplace) is inplace
        assert np.array_equal(inplace, expect[fn])
    assert ((n, p, kind) in row_tables_by_key) == (n < PARALLEL_MIN_ELEMENTS)

@pytest.mark.parametrize("p", [998244353, 1337006139375617])
def test_declined_arguments_raise_the_general_routes_errors(p):
    n = 64
    plan = _warm(p, "cyclic", n)
    dt = plan.dtype
    good = np.arange(n, dtype=dt)
    bad = good.copy()
    bad[5] = p
    negative = good.astype(np.int64)
    negative[3] = -1
    buf = np.zeros(2 * n, dt)
    readonly = np.empty(n, dt)
    readonly.flags.writeable = False
    cases = {   # name: (call of the fast path, call of the general route)
        "value >= p": (lambda: plan.forward(bad),
                       lambda: plan.forward(bad, reduction=plan.reduction)),
        "value >= p into out": (lambda: plan.forward(bad, out=np.empty(n, dt)),
                                lambda: plan.forward(bad, out=np.empty(n, dt),
                                                     reduction=plan.reduction)),
        "negative": (lambda: plan.inverse(negative),
                     lambda: plan.inverse(negative, reduction=plan.reduction)),
        "out too short": (lambda: plan.forward(good, out=np.empty(n - 1, dt)),
                          lambda: plan.forward(good, out=np.empty(n - 1, dt),
                                               reduction=plan.reduction)),
        "out float": (lambda: plan.forward(good, out=np.empty(n)),
                      lambda: plan.forward(good, out=np.empty(n), reduction=plan.reduction)),
        "out int16": (lambda: plan.forward(good, out=np.empty(n, np.int16)),
                      lambda: plan.forward(good, out=np.empty(n, np.int16),
                                           reduction=plan.reduction)),
        "out read-only": (lambda: plan.forward(good, out=readonly),
                          lambda: plan.forward(good, out=readonly, reduction=plan.reduction)),
        "out overlaps": (lambda: plan.forward(buf[:n], out=buf[1:n + 1]),
                         lambda: plan.forward(buf[:n], out=buf[1:n + 1],
                                              reduction=plan.reduction)),
        "bit_reversed=1": (lambda: plan.forward(good, bit_reversed=1),
                           lambda: plan.forward(good, bit_reversed=1, reduction=plan.reduction)),
        "assume_reduced='yes'": (lambda: plan.inverse(good, assume_reduced="yes"),
                                 lambda: plan.inverse(good, assume_reduced="yes",
                                                      reduction=plan.reduction)),
        "axis=1": (lambda: plan.forward(good, axis=1),
                   lambda: plan.forward(good, axis=1, reduction=plan.reduction)),
        "axis=-1.0": (lambda: plan.forward(good, axis=-1.0),
                      lambda: plan.forward(good, axis=-1.0, reduction=plan.reduction)),
        "workers=0": (lambda: plan.forward(good, workers=0),
                      lambda: plan.forward(good, workers=0, reduction=plan.reduction)),
        "ntt value >= p": (lambda: ntt_cy.ntt(bad, p), lambda: ntt_cy.ntt(bad, p, n=n)),
        "ntt float p": (lambda: ntt_cy.ntt(good, float(p)),
                        lambda: ntt_cy.ntt(good, float(p), n=n)),
        "ntt kind": (lambda: ntt_cy.ntt(good, p, kind="Cyclic"),
                     lambda: ntt_cy.ntt(good, p, kind="Cyclic", n=n)),
        "intt out overlaps": (lambda: ntt_cy.intt(buf[:n], p, out=buf[2:n + 2]),
                              lambda: ntt_cy.intt(buf[:n], p, out=buf[2:n + 2], n=n)),
        "intt workers=-10**6": (lambda: ntt_cy.intt(good, p, workers=-10**6),
                                lambda: ntt_cy.intt(good, p, workers=-10**6, n=n)),
    }
    for name, (fast, general) in cases.items():
        before = (bad.copy(), negative.copy(), good.copy())
        assert _error(fast) == _error(general), name
        assert all(np.array_equal(x, y) for x, y in zip(before, (bad, negative, good))), name


def test_in_place_with_a_bad_value_leaves_the_input_intact():
    p, n = 998244353, 256
    plan = _warm(p, "cyclic", n)
    a = np.arange(n, dtype=np.uint32)
    a[9] = p
    before = a.copy()
    for method in (plan.forward, plan.inverse):
        with pytest.raises(ValueError, match="outside"):
            method(a, out=a)
        assert np.array_equal(a, before)
    with pytest.raises(ValueError, match="outside"):
        ntt_cy.ntt(a, p, out=a)
    assert np.array_equal(a, before)


def test_forms_the_fast_path_declines_still_compute():
    p, n = 998244353, 32
    plan = _warm(p, "cyclic", n)
    a = np.arange(n, dtype=np.uint32)
    expect = plan.forward(a, reduction=plan.reduction)
    wide = np.zeros(2 * n, np.uint32)
    wide[::2] = a
    misaligned = np.zeros(4 * n + 1, np.uint8)[1:].view(np.uint32)
    out_forms = {"strided out": wide[::2], "misaligned out": misaligned,
                 "int64 out": np.empty(n, np.int64), "2-D out": np.empty((1, n), np.uint32)}
    for name, out in out_forms.items():
        x = a.reshape(1, n) if out.ndim == 2 else a
        assert _ntt.plan_row_call(x, out, plan._row_tables, True, False, False, -1) is None, name
        got = plan.forward(x, out=out)
        assert got is out and np.array_equal(got.reshape(-1), expect), name
    assert np.array_equal(plan.forward(a, bit_reversed=np.True_),
                          plan.forward(a, bit_reversed=True))
    assert np.array_equal(plan.forward(list(a)), expect)
    wide[::2] = a   # (written as an out above)
    assert np.array_equal(plan.forward(wide[::2]), expect)


@pytest.mark.parametrize("m,kind,n", [(998244353, "linear", 256), (8380417, "negacyclic", 256),
                                      (12289, "negacyclic", 1024), (10**9 + 7, "cyclic", 64),
                                      (1337006139375617, "linear", 512)])
def test_prepared_product_calls_equal_the_general_route(m, kind, n):
    rng = np.random.default_rng(n)
    dt = np.uint32 if m < 2**32 else np.uint64
    a, b = (rng.integers(0, m, n).astype(dt) for _ in range(2))
    ntt_cy.polymul(a, b, m, kind=kind)   # prepares the product
    expect = ntt_cy.polymul(a[None], b[None], m, kind=kind)[0]   # a batch: the general route
    before = a.copy(), b.copy()
    assert np.array_equal(_ntt.cached_product_call(a, b, m, kind,
                                                   ntt_cy._single_row.prepared_products,
                                                   False), expect)
    assert np.array_equal(ntt_cy.polymul(a, b, m, kind=kind, workers=1), expect)
    assert np.array_equal(ntt_cy.polymul(a, b, m, kind=kind, assume_reduced=True), expect)
    out = np.empty_like(expect)
    assert ntt_cy.polymul(a, b, m, kind=kind, out=out) is out and np.array_equal(out, expect)
    # values >= m and negative ones: reduced by the general route
    big, neg = a.astype(np.int64) + m, a.astype(np.int64) - m
    assert np.array_equal(ntt_cy.polymul(big, b, m, kind=kind), expect)
    assert np.array_equal(ntt_cy.polymul(neg, b, m, kind=kind), expect)
    assert all(np.array_equal(x, y) for x, y in zip(before, (a, b)))
    # each bad argument: the same error as the same call as a batch of one row, which
    # goes the general route
    bad_arguments = {"float m": dict(modulus=float(m)), "assume_reduced=1": dict(assume_reduced=1),
                     "workers=0": dict(workers=0), "kind": dict(kind="Linear")}
    for name, change in bad_arguments.items():
        args = dict(modulus=m, kind=kind) | change
        modulus = args.pop("modulus")
        error = _error(lambda: ntt_cy.polymul(a, b, modulus, **args))
        assert error[0] in (TypeError, ValueError), name
        assert error == _error(lambda: ntt_cy.polymul(a[None], b[None], modulus, **args)), name


def test_ntt_call_takes_the_worker_counts_the_general_route_takes():
    p, n = 998244353, 256
    _warm(p, "cyclic", n)
    a = np.arange(n, dtype=np.uint32)
    expect = ntt_cy.ntt(a, p, n=n)
    for workers in (None, 1, 2, MAX_WORKERS):
        got = _ntt.cached_row_call(a, p, "cyclic", row_tables_by_key, True, None, False, -1,
                                   "auto", workers)
        assert np.array_equal(got, expect)
    for workers in (0, -1, MAX_WORKERS + 1, 1.0, np.int64(1)):   # the general route's call
        assert _ntt.cached_row_call(a, p, "cyclic", row_tables_by_key, True, None, False, -1,
                                    "auto", workers) is None



# Rows from the length that uses threads up to ROW_CALL_BELOW_N: one compiled call on the
# threads the general route would resolve.
LONGER_CASES = [(998244353, "cyclic"), (998244353, "negacyclic"), (1337006139375617, "cyclic"),
                (2**64 - 2**32 + 1, "cyclic")]


@pytest.mark.parametrize("p,kind", LONGER_CASES)
@pytest.mark.parametrize("n", [PARALLEL_MIN_ELEMENTS, ROW_CALL_BELOW_N // 2])
def test_longer_rows_take_the_compiled_call_on_the_resolved_threads(p, kind, n):
    plan = NTTPlan(n, p, kind=kind)
    plan.forward(np.zeros(n, plan.dtype))
    assert plan._row_tables is not None and (n, p, kind) not in row_tables_by_key
    x = np.random.default_rng(n % 97 + p % 89).integers(0, p, n, dtype=np.uint64)
    x = x.astype(plan.dtype)
    x[-1] = p - 1
    before = x.copy()
    for forward in (True, False):
        method = plan.forward if forward else plan.inverse
        for br in (False, True):
            expect = method(x, bit_reversed=br, reduction=plan.reduction)   # the general route
            for workers in (None, 1, 2, -1):
                threads = effective_threads(workers, n)
                got = _ntt.plan_row_call(x, None, plan._row_tables, forward, br, False, -1,
                                         threads)
                assert got is not None and np.array_equal(got, expect), (forward, br, workers)
                assert np.array_equal(method(x, bit_reversed=br, workers=workers), expect)
                out = np.full(n, 7, plan.dtype)
                assert method(x, bit_reversed=br, out=out, workers=workers) is out
                assert np.array_equal(out, expect)
                inplace = x.copy()
                assert method(inplace, bit_reversed=br, out=inplace, workers=workers) is inplace
                assert np.array_equal(inplace, expect)
        fn = ntt_cy.ntt if forward else ntt_cy.intt
        for workers in (None, 1, 2):
            assert np.array_equal(fn(x, p, kind=kind, workers=workers),
                                  method(x, reduction=plan.reduction))
        assert np.array_equal(x, before)
    bad = x.copy()
    bad[n // 3] = p   # declined, so the general route raises, the input intact
    assert _ntt.plan_row_call(bad, None, plan._row_tables, True, False, False, -1, 2) is None
    assert _ntt.transform_row(bad, plan._row_tables, True, True, True, None, 2) is None
    with pytest.raises(ValueError, match="outside"):
        plan.forward(bad, out=bad)
    assert bad[n // 3] == p and np.array_equal(np.delete(bad, n // 3), np.delete(x, n // 3))
    for workers in (0, 1.5, MAX_WORKERS + 1):   # the general route's errors
        assert _error(lambda: plan.forward(x, workers=workers)) == \
            _error(lambda: plan.forward(x[None], workers=workers))
    with pytest.raises(ValueError, match="thread count 0"):
        _ntt.transform_row(x, plan._row_tables, True, True, True, None, 0)


def test_rows_from_the_polled_length_on_take_the_general_route():
    n = ROW_CALL_BELOW_N   # (rows this long poll for signals: tests/kernels/test_interrupts.py)
    plan = NTTPlan(n, 998244353)
    x = np.arange(n, dtype=np.uint32)
    expect = plan.forward(x[None])[0]
    assert plan._row_tables is None and np.array_equal(plan.forward(x), expect)
    assert _ntt.transform_row(x, plan.tables(plan.reduction), True) is None


@pytest.mark.parametrize("m,kind,n", [(998244353, "cyclic", 8192), (998244353, "negacyclic", 8192),
                                      (998244353, "linear", 8192), (10**9 + 7, "linear", 4096),
                                      (10**9 + 7, "cyclic", 8192),
                                      (1337006139375617, "cyclic", 8192)])
def test_longer_prepared_products_run_on_the_resolved_threads(m, kind, n):
    # products whose transforms reach PARALLEL_MIN_ELEMENTS values: prepared apart from
    # the one-thread ones (cached_product_call never finds them), run on `workers`
    dt = np.uint32 if m < 2**32 else np.uint64
    rng = np.random.default_rng(n + m % 101)
    a = rng.integers(0, m, n, dtype=np.uint64).astype(dt)
    b = rng.integers(0, m, n, dtype=np.uint64).astype(dt)
    a[0] = b[-1] = m - 1
    want = ntt_cy.polymul(a[None], b[None], m, kind=kind)[0]   # a batch: the general route
    for workers in (None, 1, 2, -1):
        assert np.array_equal(ntt_cy.polymul(a, b, m, kind=kind, workers=workers), want)
    if prepare(n, n, m, kind) is None:
        # no one-call route on this build: mod 10^9 + 7 on the portable build, whose
        # measured costs choose a basis the prepared products do not take
        assert ACTIVE_ISA == "portable" and m == 10**9 + 7
        return
    key = (n, n, m, kind)
    product = prepared_threaded.get(key)
    assert product is not None and key not in prepared_products
    assert product.n >= PARALLEL_MIN_ELEMENTS
    for threads in (1, 2):
        assert np.array_equal(product.product(a, b, True, threads), want)
        assert np.array_equal(product.product(a, a, True, threads),
                              ntt_cy.polymul(a[None], a[None], m, kind=kind)[0])
    bad = a.copy()
    bad[n // 2] = m   # declined; the general route reduces it
    assert product.product(bad, b, True, 2) is None
    assert np.array_equal(ntt_cy.polymul(bad, b, m, kind=kind),
                          ntt_cy.polymul(bad[None], b[None], m, kind=kind)[0])
    with pytest.raises(ValueError, match="thread count 0"):
        product.product(a, b, True, 0)
    for workers in (0, 1.5):   # the general route's errors
        assert _error(lambda: ntt_cy.polymul(a, b, m, kind=kind, workers=workers)) == \
            _error(lambda: ntt_cy.polymul(a[None], b[None], m, kind=kind, workers=workers))


@pytest.mark.parametrize("transform", [ntt_cy.ntt, ntt_cy.intt])
def test_a_uint64_row_on_uint32_lanes_allocates_only_its_result(transform):
    # the lanes' row goes to a scratch buffer before it is widened to the input's
    # dtype: a fresh one, then its widened copy, made glibc trim and fault both in
    # again on every call (a 2^16 row: ~510 us against 60)
    import tracemalloc

    p, n = 998244353, 1 << 16
    a = np.random.default_rng(9).integers(0, p, n).astype(np.uint64)
    want = transform(a.astype(np.uint32), p)
    got = transform(a, p)
    assert got.dtype == np.uint64 and np.array_equal(got, want)
    tracemalloc.start()
    try:
        got = transform(a, p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, want)
    assert peak < 1.25 * got.nbytes, (peak, got.nbytes)
    assert not np.shares_memory(got, transform(a, p))   # never a scratch view
