"""Plans: caching, thread counts, copies, and sharing one plan between Python threads."""
import copy
import pickle
import threading

import numpy as np
import pytest

import ntt_cy
from ntt_cy import NTTPlan
from ntt_cy._kernels.active import ACTIVE_ISA
from ntt_cy._support.threads import PARALLEL_MIN_ELEMENTS, effective_threads, resolve_workers
from ntt_cy.plan import get_plan

P = 998244353


def test_plan_cache_returns_same_object():
    assert get_plan(1024, 998244353) is get_plan(1024, 998244353)
    assert get_plan(1024, 998244353) is not get_plan(1024, 998244353, kind="negacyclic")
    assert get_plan(1024, 998244353) is not get_plan(1024, 998244353, dtype=np.uint64)


def test_plan_repr_and_auto_choice():
    assert NTTPlan(16, 998244353).reduction == "lazy"
    assert NTTPlan(16, 2281701377).reduction != "lazy"        # no lazy headroom
    goldilocks = "montgomery" if ACTIVE_ISA == "portable" else "goldilocks"
    assert NTTPlan(16, 2**64 - 2**32 + 1).reduction == goldilocks   # fastest per build
    assert NTTPlan(16, 2013265921).reduction == "lazy"        # [0, p) with Shoup twiddles
    assert "n=16" in repr(NTTPlan(16, 998244353))


@pytest.mark.parametrize("shape", [(2**20,), (64, 2**14), (3, 2**15), (5, 2**10)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_results_identical_for_any_worker_count(shape, kind):
    p = 998244353
    a = np.random.default_rng(0).integers(0, p, shape).astype(np.uint32)
    for fam in ("lazy", "montgomery", "barrett"):
        ref = ntt_cy.ntt(a, p, workers=1, kind=kind, reduction=fam)
        for w in (2, 3, None, -1):
            assert np.array_equal(ntt_cy.ntt(a, p, workers=w, kind=kind, reduction=fam), ref)
            assert np.array_equal(ntt_cy.intt(ref, p, workers=w, kind=kind, reduction=fam), a)


def test_64_bit_lanes_identical_for_any_worker_count():
    p = 2**64 - 2**32 + 1
    a = np.random.default_rng(0).integers(0, 2**63, 2**18, dtype=np.uint64)
    ref = ntt_cy.ntt(a, p, workers=1)
    assert np.array_equal(ntt_cy.ntt(a, p, workers=2), ref)


def test_workers_semantics():
    from ntt_cy._support.threads import cpu_count

    assert resolve_workers(None) == ntt_cy.get_workers() >= 1
    assert resolve_workers(-1) == cpu_count() and resolve_workers(3) == 3
    assert effective_threads(4, PARALLEL_MIN_ELEMENTS - 1) == 1
    assert effective_threads(4, PARALLEL_MIN_ELEMENTS) == 4
    # -k counts back from the usable CPUs (scipy.fft's rule); 0 and below -cores raise
    assert np.array_equal(ntt_cy.ntt([1, 2], 998244353, workers=-cpu_count()),
                          ntt_cy.ntt([1, 2], 998244353))
    for bad in (0, -cpu_count() - 1, -10**6):
        with pytest.raises(ValueError, match="workers = .* is out of range"):
            ntt_cy.ntt([1, 2], 998244353, workers=bad)
    with pytest.raises(ValueError, match="too large"):
        ntt_cy.ntt(np.zeros(2**14, np.uint32), 998244353, workers=2**40)
    with pytest.raises(TypeError, match="workers must be an integer"):
        ntt_cy.ntt([1, 2], 998244353, workers=1.5)


def test_one_plan_from_four_python_threads():
    p, n = 998244353, 2**14
    plan = NTTPlan(n, p, kind="negacyclic")
    inputs = [np.random.default_rng(i).integers(0, p, (4, n)).astype(np.uint32) for i in range(8)]
    expected = [plan.forward(x, workers=1) for x in inputs]
    fresh = NTTPlan(n, p, kind="negacyclic")  # tables built concurrently on first use
    errors = []

    def work(tid):
        try:
            for k in range(6):
                i = (tid + k) % len(inputs)
                fam = ("lazy", "montgomery", "barrett")[(tid + k) % 3]
                got = fresh.forward(inputs[i], workers=2, reduction=fam)
                assert np.array_equal(got, expected[i])
                assert np.array_equal(fresh.inverse(got, reduction=fam), inputs[i])
        except Exception as exc:  # collected and re-raised in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_unscaled_inverse_kernel_leaves_out_n_inverse():
    from ntt_cy._kernels import active as _ntt
    p, n = 998244353, 1024
    plan = NTTPlan(n, p)
    a = np.random.default_rng(0).integers(0, p, (2, n)).astype(np.uint32)
    for fam in ("lazy", "montgomery", "barrett"):
        A = plan.forward(a, bit_reversed=True, reduction=fam)
        out = np.empty_like(A)
        _ntt.inverse(A, out, plan.tables(fam), 1, False, False)
        assert int(out.max()) < p
        assert np.array_equal(out.astype(object) * pow(n, -1, p) % p, a.astype(object))
    nega = NTTPlan(n, p, kind="negacyclic")
    with pytest.raises(ValueError, match="needs a cyclic plan"):
        _ntt.inverse(a, np.empty_like(a), nega.tables("lazy"), 1, False, False)


@pytest.mark.parametrize("p", [7340033, 1337006139375617, 2251799235919873])
def test_float_twiddles_are_balanced_exact_doubles(p):
    # The AVX2 uint64 kernels' error bound assumes integers |w| <= (p-1)/2 held exactly
    # and w / p correctly rounded (ntt_cy/_kernels/simd/ntt64/avx2.h).
    from fractions import Fraction
    from ntt_cy.plan import float_twiddles
    tw = np.array([0, 1, (p - 1) // 2, (p + 1) // 2, p - 1] +
                  list(np.random.default_rng(1).integers(0, p, 200)), dtype=np.uint64)
    f, fq = float_twiddles(tw, p)
    for w, x, xq in zip(tw.tolist(), f.tolist(), fq.tolist()):
        assert x == (w if w <= (p - 1) // 2 else w - p)
        assert abs(x) <= (p - 1) // 2
        exact = Fraction(int(x), p)
        # correctly rounded: no double is nearer to x / p than xq
        assert abs(Fraction(xq) - exact) <= abs(Fraction(np.nextafter(xq, np.inf)) - exact)
        assert abs(Fraction(xq) - exact) <= abs(Fraction(np.nextafter(xq, -np.inf)) - exact)


def test_float_tables_only_where_the_build_computes_in_doubles():
    from ntt_cy._kernels import active as _ntt
    bound = 2**51 - 2**29
    wanted = _ntt.ACTIVE_ISA == "avx2"
    for p in (3, 1337006139375617, bound - 1):
        assert _ntt.float_twiddles(p, 8) == wanted
        assert not _ntt.float_twiddles(p, 4)
    for p in (2, bound, 2**62):
        assert not _ntt.float_twiddles(p, 8)
    arrays = NTTPlan(64, 1337006139375617, reduction="lazy").tables("lazy").arrays
    assert ("fwd_tw_f" in arrays and "inv_tw_fq" in arrays) == wanted
    assert "fwd_tw_f" not in NTTPlan(64, 1337006139375617).tables("montgomery").arrays
    assert "fwd_tw_f" not in NTTPlan(64, 998244353, dtype=np.uint64).tables("montgomery").arrays


@pytest.mark.parametrize("copier", [lambda plan: pickle.loads(pickle.dumps(plan)), copy.copy,
                                    copy.deepcopy])
@pytest.mark.parametrize("kw", [{}, {"kind": "negacyclic", "reduction": "barrett"},
                                {"dtype": np.uint64, "root": pow(3, (P - 1) // 64, P)}])
def test_plans_pickle_and_copy_by_their_parameters(copier, kw):
    plan = NTTPlan(64, P, **kw)
    x = np.arange(64, dtype=plan.dtype)
    want = plan.forward(x)                       # tables built: the copy builds its own
    twin = copier(plan)
    assert twin is not plan and repr(twin) == repr(plan) and twin.root == plan.root
    assert np.array_equal(twin.forward(x), want)
    assert np.array_equal(twin.inverse(want), x)


class _SubPlan(NTTPlan):
    pass


def test_a_subclass_copies_as_itself():
    twin = pickle.loads(pickle.dumps(_SubPlan(16, P, kind="negacyclic")))
    assert type(twin) is _SubPlan and twin.kind == "negacyclic"


@pytest.fixture
def small_scratch(monkeypatch):
    """A 64 KiB scratch limit: integer batches above it convert piece by piece."""
    from ntt_cy._support import pieces
    monkeypatch.setattr(pieces, "SCRATCH_LIMIT_BYTES", 1 << 16)
    monkeypatch.setattr("ntt_cy.plan.SCRATCH_LIMIT_BYTES", 1 << 16)
    monkeypatch.setattr("ntt_cy.plan.PIECES_FROM", 0)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int16])
def test_a_long_integer_batch_converts_piece_by_piece_to_the_same_result(dtype, small_scratch,
                                                                          scratch_requests):
    import ntt_cy.plan as plan_module
    p, n = 998244353, 256
    rng = np.random.default_rng(11)
    high = min(p, np.iinfo(dtype).max + 1)
    a = rng.integers(0, high, (3, 40, n), dtype=np.int64).astype(dtype)
    a[-1, -1, :] = high - 1
    original = a.copy()
    lanes = a.astype(np.uint32)
    shapes = scratch_requests(plan_module)
    plan = NTTPlan(n, p)
    for bit_reversed in (False, True):
        for transform in (plan.forward, plan.inverse):
            shapes.clear()
            got = transform(a, bit_reversed=bit_reversed, workers=1)
            want = transform(lanes, bit_reversed=bit_reversed, workers=1)
            assert got.shape == a.shape and np.array_equal(got, want)
            conversions = [shape for slot, shape in shapes if slot == "lanes"]
            assert len(conversions) > 1
            assert all(rows * n * 4 <= 1 << 16 for rows, _ in conversions)
    out = np.empty(a.shape, np.uint32)
    plan.forward(a, out=out, workers=1)
    assert np.array_equal(out, plan.forward(lanes, workers=1))
    got = plan.forward(a, workers=1, assume_reduced=True)
    assert np.array_equal(got, plan.forward(lanes, workers=1))
    assert np.array_equal(a, original)


@pytest.mark.parametrize("bad, message", [(998244353 + 4, "maximum 998244357"),
                                          (-3, "minimum -3")])
def test_a_value_outside_in_a_later_piece_names_the_whole_arrays_extreme(bad, message,
                                                                          small_scratch):
    p, n = 998244353, 256
    rng = np.random.default_rng(12)
    a = rng.integers(0, p, (64, n), dtype=np.int64)
    a[-1, 3] = bad
    a[0, 0] = 7
    original = a.copy()
    with pytest.raises(ValueError, match=message):
        ntt_cy.ntt(a, p, workers=1)
    assert np.array_equal(a, original)


def test_an_integer_batch_transformed_in_place_converts_every_value_first(small_scratch):
    # out is the input itself: written only after every value has been converted
    p, n = 998244353, 256
    rng = np.random.default_rng(13)
    a = rng.integers(0, p, (64, n), dtype=np.int64)
    want = ntt_cy.ntt(a.astype(np.uint32), p, workers=1)
    assert ntt_cy.ntt(a, p, workers=1, out=a) is a
    assert np.array_equal(a, want)
