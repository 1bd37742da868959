"""Arrays not aligned to their element size (views at an odd byte offset) never reach
the kernels, whose C reads them as uint32_t / uint64_t pointers: every route copies
such an input at its door and writes a misaligned `out` through an aligned temporary.
A spy on the kernel entry points checks each array they receive, and the results equal
those of aligned copies of the same arrays.  (tools/sanitize.sh runs this file under
UBSan too, which reports a misaligned load wherever the spy cannot look.)"""
import random

import numpy as np
import pytest

import ntt_cy
import ntt_cy.poly as poly
from ntt_cy import _routing
from ntt_cy._single_row import clear_route_caches
from ntt_cy.bigint import ntt_multiply
from ntt_cy._kernels import active, schoolbook
from ntt_cy._kernels.crt import carry, garner32, garner64, residues, wide

P32 = 998244353
P64 = 2**64 - 2**32 + 1
RNG = np.random.default_rng(2024)
# The kernel entry points the Python routes call by module attribute (a spy replaces
# each by a wrapper that checks its arrays).
SPIED = {active: ("forward", "inverse", "forward_padded", "pointwise_mul", "pointwise_inverse",
                  "padded_product", "garner32_mod", "garner32_mod64", "garner32_digits"),
         schoolbook: ("linear_mod",), residues: ("reduce_pad",)}
SPIED_MODULES = (carry, garner32, garner64, wide)   # every function of these


def misaligned(values, dtype) -> np.ndarray:
    """`values` as an array of `dtype` one byte past an aligned address."""
    values = np.asarray(values).astype(dtype)
    arr = np.zeros(values.nbytes + 1, np.uint8)[1:].view(dtype).reshape(values.shape)
    arr[...] = values
    assert not arr.flags.aligned
    return arr


def residues_below(p, shape, dtype=np.uint64):
    return (RNG.integers(0, 2**63, shape, dtype=np.uint64) % np.uint64(p)).astype(dtype)


class Spy:
    """Counts the kernel calls and fails on a misaligned array among their arguments."""

    def __init__(self):
        self.calls = 0

    def wrap(self, fn, declines=False):
        """fn checked; declines: fn reads its arrays' headers first and returns None for
        one it does not take (checked only where it computed)."""
        def checked(*args, **kwargs):
            result = fn(*args, **kwargs)
            if declines and result is None:
                return result
            self.calls += 1
            for value in args + tuple(kwargs.values()):
                if isinstance(value, np.ndarray):
                    assert value.flags.aligned, f"a misaligned array reached {fn.__name__}"
            return result
        return checked


@pytest.fixture
def spy(monkeypatch):
    spy = Spy()
    for module, names in SPIED.items():
        for name in names:
            monkeypatch.setattr(module, name, spy.wrap(getattr(module, name)))
    for module in SPIED_MODULES:
        for name in dir(module):
            fn = getattr(module, name)
            if not name.startswith("_") and callable(fn) and not isinstance(fn, type):
                monkeypatch.setattr(module, name, spy.wrap(fn))
    for name in ("transform_row", "plan_row_call", "cached_row_call", "cached_product_call"):
        monkeypatch.setattr(active, name, spy.wrap(getattr(active, name), declines=True))
    for dt, pair in list(active.TRANSFORMS.items()):
        monkeypatch.setitem(active.TRANSFORMS, dt, tuple(spy.wrap(f) for f in pair))
    # the rows every polymul route hands its kernels (cdef products included)
    monkeypatch.setattr(poly, "run_route", spy.wrap(poly.run_route))
    yield spy
    assert spy.calls > 0, "no kernel call went through the spy: the test checks nothing"


@pytest.fixture
def routes_restored():
    """The cached routes forgotten after the test (set up before monkeypatch, so this
    runs after its undo): routes made under a forced path must not outlive it."""
    yield
    clear_route_caches()


# ---------------------------------------------------------------- transforms

@pytest.mark.parametrize("p, dtype", [(P32, np.uint32), (P32, np.int64), (P64, np.uint64)],
                         ids=["u32", "i64", "u64"])
@pytest.mark.parametrize("shape, axis", [((1024,), -1), ((3, 256), -1), ((256, 3), 0)],
                         ids=["row", "rows", "axis0"])
def test_transforms_of_a_misaligned_input(spy, p, dtype, shape, axis):
    x = residues_below(p, shape, dtype)
    a = misaligned(x, dtype)
    for fn in (ntt_cy.ntt, ntt_cy.intt):
        got = fn(a, p, axis=axis)
        assert np.array_equal(got, fn(x, p, axis=axis))
        assert got.flags.aligned
    assert np.array_equal(a, x)   # the input untouched


@pytest.mark.parametrize("p, dtype", [(P32, np.uint32), (P64, np.uint64), (P32, np.int64)],
                         ids=["u32", "u64", "i64"])
def test_transforms_into_a_misaligned_out(spy, p, dtype):
    x = residues_below(p, (2, 512), dtype)
    want = ntt_cy.ntt(x, p)
    out = misaligned(np.zeros(x.shape), dtype)
    assert ntt_cy.ntt(x, p, out=out) is out and np.array_equal(out, want)
    inplace = misaligned(x, dtype)   # out=a, both misaligned
    assert ntt_cy.ntt(inplace, p, out=inplace) is inplace and np.array_equal(inplace, want)
    assert np.array_equal(ntt_cy.intt(inplace, p, out=inplace), x)


@pytest.mark.parametrize("bit_reversed", [False, True])
def test_plans_of_misaligned_arrays(spy, bit_reversed):
    plan = ntt_cy.NTTPlan(256, P64, kind="negacyclic")
    x = residues_below(P64, (4, 256))
    want = plan.forward(x, bit_reversed=bit_reversed)
    a = misaligned(x, np.uint64)
    assert np.array_equal(plan.forward(a, bit_reversed=bit_reversed), want)
    out = misaligned(np.zeros(x.shape), np.uint64)
    plan.forward(a, out=out, bit_reversed=bit_reversed)
    assert np.array_equal(out, want)
    back = misaligned(np.zeros(x.shape), np.uint64)
    plan.inverse(out, out=back, bit_reversed=bit_reversed)
    assert np.array_equal(back, x) and np.array_equal(a, x)


def test_a_misaligned_transform_padded_by_n(spy):
    x = residues_below(P32, (300,), np.uint32)
    assert np.array_equal(ntt_cy.ntt(misaligned(x, np.uint32), P32, n=512),
                          ntt_cy.ntt(x, P32, n=512))


# ---------------------------------------------------------------- products

@pytest.mark.parametrize("m, shape_a, shape_b, kind, path", [
    (P32, (300,), (300,), "linear", "direct"),
    (10**9 + 7, (300,), (300,), "linear", "crt"),
    (2**61 - 1, (2, 300), (300,), "linear", "crt"),
    (P32, (3, 7), (3, 5), "linear", "schoolbook"),
    (P32, (2, 256), (2, 256), "cyclic", "direct"),
    (10**9 + 7, (2, 64), (2, 64), "negacyclic", "crt"),
    (2**64 + 13, (40,), (40,), "linear", "crt_words"),
    (2**127 - 1, (2, 300), (2, 300), "linear", "crt32_words"),
], ids=["direct", "crt", "crt64", "schoolbook", "cyclic", "negacyclic", "words", "words32"])
@pytest.mark.parametrize("dtype", [np.uint64, np.int64, np.uint32])
def test_products_of_misaligned_operands(routes_restored, spy, monkeypatch, m, shape_a,
                                        shape_b, kind, path, dtype):
    # the path forced (the cost model's choice depends on the kernels' measured speed)
    monkeypatch.setattr(_routing, "schoolbook_cheaper", lambda *args: path == "schoolbook")
    clear_route_caches()
    rows = int(np.prod(np.broadcast_shapes(shape_a[:-1], shape_b[:-1])))
    assert _routing.product_route(rows, shape_a[-1], shape_b[-1], m, kind).path == path
    x = RNG.integers(0, np.iinfo(dtype).max, shape_a, dtype=dtype, endpoint=True)
    y = RNG.integers(0, np.iinfo(dtype).max, shape_b, dtype=dtype, endpoint=True)
    want = ntt_cy.polymul(x, y, m, kind=kind)
    a, b = misaligned(x, dtype), misaligned(y, dtype)
    assert np.array_equal(ntt_cy.polymul(a, b, m, kind=kind), want)
    assert np.array_equal(ntt_cy.polymul(a, a, m, kind=kind), ntt_cy.polymul(x, x, m, kind=kind))
    assert np.array_equal(a, x) and np.array_equal(b, y)


def test_a_product_into_a_misaligned_out(spy):
    x = residues_below(P32, (2, 300))
    want = ntt_cy.polymul(x, x[0], P32)
    out = misaligned(np.zeros(want.shape), np.uint64)
    assert ntt_cy.polymul(x, x[0], P32, out=out) is out and np.array_equal(out, want)


@pytest.mark.parametrize("p", [P32, 2**64 - 59, 2**63 + 2])
def test_elementwise_products_of_misaligned_arrays(spy, p):
    x = RNG.integers(0, 2**64, (3, 1000), dtype=np.uint64, endpoint=False)
    y = RNG.integers(0, 2**64, (1000,), dtype=np.uint64, endpoint=False)
    want = ntt_cy.mul_mod(x, y, p)
    a, b = misaligned(x, np.uint64), misaligned(y, np.uint64)
    assert np.array_equal(ntt_cy.mul_mod(a, b, p), want)
    out = misaligned(np.zeros(want.shape), want.dtype)
    assert ntt_cy.mul_mod(a, b, p, out=out) is out and np.array_equal(out, want)
    assert ntt_cy.mul_mod(a, b, p, out=a) is a and np.array_equal(a, want)
    assert np.array_equal(b, y)


def test_bigmul_hands_the_kernels_aligned_arrays(spy):
    # bigmul takes Python ints: its arrays are its own (scratch limbs, digits, bytes),
    # on both of its routes: balanced operands in one kernel call, unbalanced per prime
    rng = random.Random(5)
    for bx, by in ((40_000, 30_000), (300_000, 1_000)):
        x, y = rng.getrandbits(bx), rng.getrandbits(by)
        assert ntt_multiply(x, y, 1) == x * y


# ---------------------------------------------------------------- dask blocks

def test_dask_blocks_of_misaligned_arrays(spy):
    da = pytest.importorskip("dask.array", reason="the dask extra: pip install -e '.[dask]'")
    import dask
    import ntt_cy.dask as nd

    def blocks_of(x, count):
        """x as a dask array whose blocks are misaligned arrays (from_array would copy)."""
        parts = np.split(x, count, axis=0)
        return da.concatenate([da.from_delayed(dask.delayed(misaligned)(part, x.dtype),
                                               part.shape, x.dtype) for part in parts])

    n = 1 << 10
    x = residues_below(P64, (4, n))
    with dask.config.set(scheduler="synchronous"):
        rows = blocks_of(x, 4)
        assert np.array_equal(nd.ntt(rows, P64).compute(), ntt_cy.ntt(x, P64))
        assert np.array_equal(nd.polymul(rows, rows, P64).compute(), ntt_cy.polymul(x, x, P64))
        flat = blocks_of(x.reshape(-1), 4)
        assert np.array_equal(nd.ntt_large(flat, P64, n1=64).compute(),
                              ntt_cy.ntt(x.reshape(-1), P64))
