"""The conventions numpy and scipy.fft users expect: n= crops or pads, dtypes kept,
`out` of either unsigned width (in place on uint64 and int64 arrays), empty batches,
plans compared and hashed by their parameters, the small argument checks, and the
namespace (public names only, the optional submodules loaded on first use as scipy's)."""
import itertools
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ntt_cy
from ntt_cy import NTTPlan
from ntt_oracle import dft

SMALL_P, LARGE_P = 998244353, 2**64 - 2**32 + 1


# ---------------------------------------------------------------- n=

@pytest.mark.parametrize("length", [1, 3, 5, 8, 13, 16])
@pytest.mark.parametrize("n", [1, 4, 8])
def test_n_crops_or_zero_pads_as_scipy(length, n):
    rng = np.random.default_rng(length * 31 + n)
    a = rng.integers(0, SMALL_P, length)
    fitted = np.zeros(n, dtype=np.int64)
    fitted[:min(n, length)] = a[:n]
    assert ntt_cy.ntt(a, SMALL_P, n=n).tolist() == dft(fitted.tolist(), SMALL_P)
    assert np.array_equal(ntt_cy.intt(a, SMALL_P, n=n), ntt_cy.intt(fitted, SMALL_P))


def test_n_along_another_axis_and_with_out():
    rng = np.random.default_rng(2)
    a = rng.integers(0, SMALL_P, (5, 3, 6)).astype(np.uint32)
    keep = a.copy()
    got = ntt_cy.ntt(a, SMALL_P, n=4, axis=0)
    padded = np.zeros((4, 3, 6), np.uint32)
    padded[:] = a[:4]
    assert got.shape == (4, 3, 6) and np.array_equal(got, ntt_cy.ntt(padded, SMALL_P, axis=0))
    out = np.empty((5, 8, 6), np.uint64)
    assert ntt_cy.ntt(a, SMALL_P, n=8, axis=1, out=out) is out
    wide = np.zeros((5, 8, 6), np.uint32)
    wide[:, :3] = a
    assert np.array_equal(out, ntt_cy.ntt(wide, SMALL_P, axis=1))
    assert np.array_equal(a, keep)
    with pytest.raises(ValueError, match="out has shape"):
        ntt_cy.ntt(a, SMALL_P, n=8, out=np.empty((5, 3, 6), np.uint32))


def test_n_none_needs_a_power_of_two_and_says_so():
    with pytest.raises(ValueError, match=r"n = 5 \(axis 0\) is not a power of two: pass n="):
        ntt_cy.ntt([1, 2, 3, 4, 5], SMALL_P)
    with pytest.raises(ValueError, match="pass n="):
        ntt_cy.intt(np.ones((2, 6), np.uint32), SMALL_P)
    for bad, exc in ((0, ValueError), (-4, ValueError), (6, ValueError), (4.0, TypeError),
                     (2**24, ValueError)):   # 2**24 > 998244353's 2-adicity 2**23
        with pytest.raises(exc, match="n"):
            ntt_cy.ntt([1, 2, 3], SMALL_P, n=bad)


def test_plans_stay_strict_about_the_length():
    plan = NTTPlan(8, SMALL_P)
    for length in (4, 5, 16):
        with pytest.raises(ValueError, match="plan expects n = 8"):
            plan.forward(np.ones(length, np.uint32))
        with pytest.raises(ValueError, match="plan expects n = 8"):
            plan.inverse(np.ones((2, length), np.uint32))


# ---------------------------------------------------------------- dtypes and out=

INPUT_DTYPES = [np.uint32, np.uint64, np.int32, np.int64, np.uint16, "list", "object"]
OUT_DTYPES = [None, np.uint32, np.uint64, np.int32, np.int64]


def _as_input(values, how):
    if how == "list":
        return values.tolist()
    if how == "object":
        return values.astype(object)
    return values.astype(how)


def _expected_dtype(how, p, dtype, out_dtype):
    if out_dtype is not None:
        return np.dtype(out_dtype)
    if dtype is not None:
        return np.dtype(dtype)
    if how in (np.uint32, np.uint64) and p <= 2 ** (8 * np.dtype(how).itemsize):
        return np.dtype(how)
    return np.dtype(np.uint32 if p < 2**32 else np.uint64)


@pytest.mark.parametrize("p", [12289, SMALL_P, LARGE_P])
@pytest.mark.parametrize("shape", [(16,), (3, 4096)])   # the one-row route and the general one
def test_every_lane_and_dtype_choice_gives_the_same_bits(p, shape):
    rng = np.random.default_rng(p % 1000)
    values = rng.integers(0, min(p, 2**16), shape)   # (what every input dtype holds)
    n = shape[-1]
    reference = {True: ntt_cy.ntt(values, p, workers=1).astype(np.uint64),
                 False: ntt_cy.intt(values, p, workers=1).astype(np.uint64)}
    lanes = [None, np.uint64] + ([np.uint32] if p < 2**32 else [])
    for how, dtype, out_dtype in itertools.product(INPUT_DTYPES, lanes, OUT_DTYPES):
        if out_dtype is not None and not ntt_cy._support.checks.holds_residues(
                np.dtype(out_dtype), p):
            continue
        for forward, fn in ((True, ntt_cy.ntt), (False, ntt_cy.intt)):
            a = _as_input(values, how)
            out = None if out_dtype is None else np.empty(shape, dtype=out_dtype)
            got = fn(a, p, dtype=dtype, out=out)
            case = (how, dtype, out_dtype, forward)
            assert got.dtype == _expected_dtype(how, p, dtype, out_dtype), case
            assert np.array_equal(got.astype(np.uint64), reference[forward]), case
            if out is not None:
                assert got is out
            # a plan of these lanes: the same rule without dtype=
            plan = NTTPlan(n, p, dtype=dtype)
            via_plan = (plan.forward if forward else plan.inverse)(a, out=out)
            assert via_plan.dtype == _expected_dtype(how, p, plan.dtype, out_dtype) \
                if how not in (np.uint32, np.uint64) or out_dtype is not None \
                else np.dtype(how), case
            assert np.array_equal(via_plan.astype(np.uint64), reference[forward]), case


@pytest.mark.parametrize("dt", [np.uint32, np.uint64, np.int32, np.int64])
@pytest.mark.parametrize("n", [16, 1 << 14])
def test_in_place_on_every_width_that_holds_p(dt, n):
    p = SMALL_P
    a = np.random.default_rng(n).integers(0, p, (2, n)).astype(dt)
    want = ntt_cy.ntt(a.astype(np.uint32), p)
    x = a.copy()
    assert ntt_cy.ntt(x, p, out=x) is x and x.dtype == dt
    assert np.array_equal(x.astype(np.uint64), want)
    assert ntt_cy.intt(x, p, out=x) is x and np.array_equal(x, a)
    plan = NTTPlan(n, p)
    assert plan.forward(x, out=x) is x and np.array_equal(x.astype(np.uint64), want)
    # a value outside [0, p) raises before anything is written
    bad = a.copy()
    bad[1, -1] = p
    keep = bad.copy()
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        ntt_cy.ntt(bad, p, out=bad)
    assert np.array_equal(bad, keep)


def test_out_dtypes_that_cannot_hold_p_are_refused():
    for p, dt in ((SMALL_P, np.uint16), (SMALL_P, np.int8), (SMALL_P, np.float64),
                  (2281701377, np.int32), (LARGE_P, np.uint32), (LARGE_P, np.int64)):
        a = np.ones(8, np.uint64)
        with pytest.raises(TypeError, match=f"out has dtype {np.dtype(dt)}, which cannot hold"):
            ntt_cy.ntt(a, p, out=np.empty(8, dtype=dt))
    with pytest.raises(TypeError, match="out must be a numpy array"):
        ntt_cy.ntt(np.ones(8, np.uint32), SMALL_P, out=[0] * 8)


def test_signed_inputs_give_unsigned_lanes():
    # int64 (numpy's default) and lists take the lanes of p: uint32 below 2**32
    assert ntt_cy.ntt(np.arange(8), SMALL_P).dtype == np.uint32
    assert ntt_cy.ntt(list(range(8)), SMALL_P).dtype == np.uint32
    assert ntt_cy.ntt(np.arange(8), LARGE_P).dtype == np.uint64
    assert ntt_cy.ntt(np.arange(8, dtype=np.uint64), SMALL_P).dtype == np.uint64
    assert ntt_cy.ntt(np.arange(8, dtype=np.uint32), SMALL_P, dtype=np.uint64).dtype == np.uint64
    assert ntt_cy.ntt(np.arange(8, dtype=np.uint64), SMALL_P, dtype=np.uint32).dtype == np.uint32


# ---------------------------------------------------------------- empty batches

@pytest.mark.parametrize("shape,axis", [((0, 8), -1), ((8, 0), 0), ((2, 0, 4), -1)])
@pytest.mark.parametrize("dt", [np.uint32, np.uint64, np.int64])
def test_empty_batches_give_empty_results(shape, axis, dt):
    a = np.zeros(shape, dtype=dt)
    want = np.dtype(dt) if dt != np.int64 else np.dtype(np.uint32)
    for fn in (ntt_cy.ntt, ntt_cy.intt):
        got = fn(a, SMALL_P, axis=axis)
        assert got.shape == shape and got.dtype == want
        out = np.empty(shape, np.uint64)
        assert fn(a, SMALL_P, axis=axis, out=out) is out
    plan = NTTPlan(a.shape[axis], SMALL_P)
    assert plan.forward(a, axis=axis).shape == shape and plan.inverse(a, axis=axis).shape == shape
    assert ntt_cy.ntt(a, SMALL_P, axis=axis, n=16).shape == \
        tuple(16 if i == axis % a.ndim else d for i, d in enumerate(shape))


def test_empty_transform_axis_still_raises():
    for a in ([], np.zeros(0, np.uint32), np.zeros((3, 0), np.uint64)):
        for fn in (ntt_cy.ntt, ntt_cy.intt):
            with pytest.raises(ValueError, match="empty"):
                fn(a, SMALL_P)
    # with n=, an empty axis is zero-padded as scipy.fft pads it
    assert ntt_cy.ntt(np.zeros((2, 0), np.uint32), SMALL_P, n=4).tolist() == [[0] * 4] * 2


def test_empty_batches_of_products_and_mul_mod():
    for m in (7, SMALL_P, 10**9 + 7, 2**64, 2**100 + 277):
        a, b = np.zeros((0, 5), np.int64), np.zeros((0, 3), np.int64)
        got = ntt_cy.polymul(a, b, m)
        want = np.uint32 if m <= 2**32 else np.uint64 if m <= 2**64 else object
        assert got.shape == (0, 7) and got.dtype == want
        assert ntt_cy.polymul(np.zeros((2, 0, 4), np.int64), np.ones(4, np.int64), m,
                              kind="cyclic").shape == (2, 0, 4)
    with pytest.raises(ValueError, match="empty"):
        ntt_cy.polymul(np.zeros((2, 0), np.int64), [1, 2], 7)
    got = ntt_cy.mul_mod(np.zeros((0, 3), np.uint64), np.zeros(3, np.uint64), SMALL_P)
    assert got.shape == (0, 3) and got.dtype == np.uint32
    assert ntt_cy.mul_mod([], [], 7).shape == (0,)


def test_mul_mod_checks_workers_without_work_to_share():
    # an empty result and the modulus 1 (every product 0) skip the kernel, not the check
    for a, b, p in ((np.zeros(0, np.uint64), np.zeros(0, np.uint64), 7), ([1, 2], [3, 4], 1)):
        with pytest.raises(ValueError, match="workers"):
            ntt_cy.mul_mod(a, b, p, workers=0)
        with pytest.raises(TypeError, match="workers"):
            ntt_cy.mul_mod(a, b, p, workers=1.5)
        assert ntt_cy.mul_mod(a, b, p, workers=1).tolist() == [0] * len(a)


# ---------------------------------------------------------------- plans

def test_plans_compare_and_hash_by_their_parameters():
    from ntt_cy.primes import root_of_unity

    p = SMALL_P
    a = NTTPlan(16, p)
    same = [NTTPlan(16, p, reduction="auto"), NTTPlan(16, np.uint64(p), dtype=np.uint32),
            NTTPlan(16, p, root=root_of_unity(16, p)), pickle.loads(pickle.dumps(a))]
    for b in same:
        assert a == b and hash(a) == hash(b)
    other_root = pow(root_of_unity(16, p), 3, p)
    others = [NTTPlan(8, p), NTTPlan(16, 7340033), NTTPlan(16, p, dtype=np.uint64),
              NTTPlan(16, p, kind="negacyclic"), NTTPlan(16, p, reduction="lazy"),
              NTTPlan(16, p, root=other_root)]
    for b in others:
        assert a != b
    assert len({a, *same, *others}) == 1 + len(others)
    assert a != "NTTPlan" and (a == object()) is False


def test_plan_repr_is_readable_and_round_trips():
    from ntt_cy.primes import root_of_unity

    p = SMALL_P
    plans = [NTTPlan(16, p), NTTPlan(1024, 2**64 - 2**32 + 1, kind="negacyclic",
                                     reduction="barrett"),
             NTTPlan(16, p, root=pow(root_of_unity(16, p), 3, p))]
    assert repr(plans[0]) == ("NTTPlan(n=16, p=998244353, dtype='uint32', kind='cyclic', "
                              "reduction='auto')")
    assert "root=" in repr(plans[2]) and "root=" not in repr(plans[1])
    for plan in plans:
        assert eval(repr(plan), {"NTTPlan": NTTPlan}) == plan


def test_plans_tokenize_by_their_parameters():
    from dask.base import tokenize

    a, b = NTTPlan(64, SMALL_P), NTTPlan(64, SMALL_P)
    a.forward(np.ones(64, np.uint32))   # tables built in one, not the other
    assert tokenize(a) == tokenize(b) == tokenize(pickle.loads(pickle.dumps(a)))
    assert tokenize(a) != tokenize(NTTPlan(64, SMALL_P, kind="negacyclic"))
    assert a.__dask_tokenize__()[2:] == (64, SMALL_P, "uint32", "cyclic", "auto", a.root)


# ---------------------------------------------------------------- small argument checks

def test_out_with_a_stride_0_axis_is_refused():
    a = np.arange(4, dtype=np.uint32)
    out = np.broadcast_to(np.zeros(1, np.uint32), (4,))
    out.flags.writeable = True   # (numpy warns that it will refuse this one day)
    with pytest.raises(ValueError, match="stride 0 along axis 0"):
        ntt_cy.ntt(a, SMALL_P, out=out)
    with pytest.raises(ValueError, match="stride 0 along axis 1"):
        ntt_cy.intt(np.ones((2, 4), np.uint32), SMALL_P,
                    out=np.lib.stride_tricks.as_strided(np.zeros(2, np.uint32), (2, 4), (4, 0)))
    with pytest.raises(ValueError, match="stride 0"):
        ntt_cy.polymul([1, 2], [3, 4], 7,
                       out=np.lib.stride_tricks.as_strided(np.zeros(1, np.uint32), (3,), (0,)))
    # a length-1 axis may have any stride
    single = np.lib.stride_tricks.as_strided(np.zeros(4, np.uint32), (1, 4), (0, 4))
    assert ntt_cy.ntt(np.ones((1, 4), np.uint32), SMALL_P, out=single) is single


@pytest.mark.parametrize("value", ["yes", 1, 0, None, [True]])
def test_bit_reversed_must_be_a_bool(value):
    plan = NTTPlan(8, SMALL_P)
    for method in (plan.forward, plan.inverse):
        with pytest.raises(TypeError, match="bit_reversed must be a bool"):
            method(np.ones(8, np.uint32), bit_reversed=value)
    assert np.array_equal(plan.forward(np.ones(8, np.uint32), bit_reversed=np.bool_(True)),
                          plan.forward(np.ones(8, np.uint32), bit_reversed=True))


# ---------------------------------------------------------------- polymul out=, dtypes

@pytest.mark.parametrize("m", [7, SMALL_P, 10**9 + 7, 2**61 - 1, 2**64 - 59, 2**64, 2**127 - 1])
@pytest.mark.parametrize("shape", [(5,), (3, 300)])   # the one-row route and the general one
def test_polymul_out_of_any_width_that_holds_m(m, shape):
    rng = np.random.default_rng(m % 1000)
    a = rng.integers(-2**62, 2**62, shape)
    b = rng.integers(-2**62, 2**62, shape[-1:])
    want = ntt_cy.polymul(a, b, m)
    assert want.dtype == (np.uint32 if m <= 2**32 else np.uint64 if m <= 2**64 else object)
    widths = [np.uint32, np.uint64, np.int32, np.int64, object]
    for dt in widths:
        out = np.empty(want.shape, dtype=dt)
        if dt is object or ntt_cy._support.checks.holds_residues(np.dtype(dt), m):
            assert ntt_cy.polymul(a, b, m, out=out) is out
            assert [int(v) for v in out.ravel()] == [int(v) for v in want.ravel()], dt
        else:
            with pytest.raises(TypeError, match="cannot hold every coefficient"):
                ntt_cy.polymul(a, b, m, out=out)
    with pytest.raises(ValueError, match="out has shape"):
        ntt_cy.polymul(a, b, m, out=np.empty(want.shape[:-1] + (1,), dtype=object))


def test_polymul_out_may_be_an_input():
    a = np.arange(1, 9, dtype=np.uint64)
    want = ntt_cy.polymul(a, a, SMALL_P, kind="cyclic")
    assert ntt_cy.polymul(a, a, SMALL_P, kind="cyclic", out=a) is a
    assert np.array_equal(a, want)


def test_mul_mod_out_of_either_width():
    a = np.arange(10, dtype=np.uint64)
    for dt in (np.uint32, np.uint64, np.int64):
        out = np.empty(10, dtype=dt)
        assert ntt_cy.mul_mod(a, a, 11, out=out) is out and out.tolist() == [v * v % 11
                                                                               for v in range(10)]
    assert ntt_cy.mul_mod(a, a, 11, out=a) is a and a.tolist() == [v * v % 11 for v in range(10)]
    with pytest.raises(TypeError, match="cannot hold"):
        ntt_cy.mul_mod(a, a, 2**40, out=np.empty(10, np.uint32))


# ---------------------------------------------------------------- the namespace

def test_dir_lists_the_public_names_and_the_optional_submodules_only():
    names = set(dir(ntt_cy))
    assert set(ntt_cy.__all__) | {"cuda", "dask"} <= names
    assert not names & {"ModuleType", "TYPE_CHECKING", "short_spin_while_loading"}
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        ntt_cy.no_such_name


def _fresh_python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_cuda_and_dask_load_on_first_use():
    run = _fresh_python(
        "import sys, ntt_cy\n"
        "assert not {'dask', 'ntt_cy.dask', 'ntt_cy.cuda', 'pycuda'} & set(sys.modules)\n"
        "import numpy as np, dask.array as da\n"
        "a = da.from_array(np.arange(4, dtype=np.uint32), chunks=2)\n"
        "print(ntt_cy.dask.polymul(a, a, 7).compute().tolist(), ntt_cy.cuda.NTTPlan.__name__)\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["[0,", "0,", "1,", "4,", "3,", "5,", "2]", "NTTPlan"]


def test_without_dask_its_attribute_says_how_to_install_it():
    run = _fresh_python("import sys; sys.modules['dask'] = None\n"
                        "import ntt_cy\n"
                        "print(ntt_cy.polymul([1, 2], [3], 7).tolist())\n"
                        "ntt_cy.dask\n")
    assert run.stdout.split() == ["[3,", "6]"]
    assert run.returncode == 1 and 'ntt_cy.dask needs dask: pip install "ntt_cy[dask]"' in run.stderr
