"""Every asv suite in asv_bench/ sets up on this tree: a suite that cannot find a name
of ntt_cy raises NotImplementedError, which asv records as "skipped", so a moved private
module would silently drop benchmarks.  Only the GPU suites may skip (no device here)."""
import importlib
import inspect
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SUITES = sorted(p.stem for p in (ROOT / "asv_bench").glob("bench_*.py"))


@pytest.fixture
def asv_bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    return lambda name: importlib.import_module(f"asv_bench.{name}")


def first_parameters(cls):
    """The first value of every parameter of an asv class (its smallest case here)."""
    params = getattr(cls, "params", ())
    if params and not isinstance(params[0], (list, tuple)):
        params = (params,)   # asv's form for one parameter
    return tuple(values[0] for values in params)


def test_the_suites_are_the_expected_ones():
    assert SUITES == ["bench_arith", "bench_cuda", "bench_import", "bench_ntt", "bench_poly"]


@pytest.mark.parametrize("suite", SUITES)
def test_every_benchmark_class_sets_up(suite, asv_bench):
    module = asv_bench(suite)
    classes = [c for _, c in inspect.getmembers(module, inspect.isclass)
               if c.__module__ == module.__name__]
    assert classes or suite == "bench_import"
    for cls in classes:
        benchmark = cls()
        try:
            benchmark.setup(*first_parameters(cls))
        except NotImplementedError as exc:
            assert suite == "bench_cuda", f"{cls.__name__} skipped: {exc}"
            continue
        timed = [m for m in dir(benchmark) if m.split("_")[0] in ("time", "track", "peakmem")]
        assert timed, cls.__name__


def test_import_timings_name_statements(asv_bench):
    module = asv_bench("bench_import")
    for name in ("timeraw_import_ntt_cy", "timeraw_import_and_first_ntt"):
        stmt, setup = getattr(module, name)()
        assert "import ntt_cy" in stmt and "sys.path.insert" in setup


def test_private_names_resolve_in_this_tree(asv_bench):
    common = asv_bench("_common")
    assert callable(common.ntt_cy_attr("_kernels.active.pointwise_mul", "_ntt.pointwise_mul"))
    assert common.empty_like_kernel_rows(common.random_lanes((2, 8), 17, "uint32")).ctypes.data % 64 == 0
    with pytest.raises(NotImplementedError, match="ntt_cy.no_such_module"):
        common.ntt_cy_attr("no_such_module.f", "no_such_module.g")
