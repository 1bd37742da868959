"""ntt_cy.dask on a real two-process dask.distributed LocalCluster: bit-identity with the
in-memory API, the graphs it builds, faults, and the kernels' thread count in tasks."""
from __future__ import annotations

import inspect
import os
import time

import numpy as np
import pytest

import ntt_cy

da = pytest.importorskip("dask.array", reason="the dask extra: pip install -e '.[dask]'")
distributed = pytest.importorskip("distributed")

import ntt_cy.dask as nd  # noqa: E402
from ntt_cy.dask import blocks  # noqa: E402

P32 = 998244353                     # 2^23 | p - 1
P64 = 18446744069414584321          # Goldilocks 2^64 - 2^32 + 1, 2^32 | p - 1
BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _values(n, p, seed, dtype=np.uint64):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 2**63, n, dtype=np.uint64) % np.uint64(p)).astype(dtype)


def _uneven_chunks(n, parts, seed):
    """`parts` chunks of unequal sizes summing to n."""
    if parts == 1:
        return (n,)
    cuts = np.sort(np.random.default_rng(seed).choice(np.arange(1, n), parts - 1, replace=False))
    return tuple(np.diff(np.concatenate([[0], cuts, [n]])).tolist())


@pytest.mark.parametrize("p", [P32, P64], ids=["u32", "u64-goldilocks"])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_ntt_large_matches_in_memory(client, p, kind):
    n = 1 << 12
    x = _values(n, p, 1)
    expected = ntt_cy.ntt(x, p, kind=kind)
    for parts, n1 in ((1, None), (3, 16), (5, 128), (8, None)):
        X = da.from_array(x, chunks=(_uneven_chunks(n, parts, parts),))
        natural = nd.ntt_large(X, p, kind=kind, n1=n1)
        transposed = nd.ntt_large(X, p, kind=kind, n1=n1, order="transposed")
        back_nat = nd.intt_large(natural, p, kind=kind, n1=n1)
        back_tr = nd.intt_large(transposed, p, kind=kind, n1=n1, order="transposed")
        got_nat, got_tr, x1, x2 = client.compute([natural, transposed, back_nat, back_tr],
                                                 sync=True)
        n1_ = n1 or 64
        n2_ = n // n1_
        assert got_nat.dtype == expected.dtype == natural.dtype
        np.testing.assert_array_equal(got_nat, expected)
        # transposed: element k1 n2 + k2 holds A[k1 + n1 k2]
        np.testing.assert_array_equal(got_tr.reshape(n1_, n2_), expected.reshape(n2_, n1_).T)
        np.testing.assert_array_equal(x1, x)
        np.testing.assert_array_equal(x2, x)


def test_ntt_large_custom_root_and_inverse_of_in_memory(client):
    p, n = P32, 1 << 10
    root = pow(ntt_cy.primes.primitive_root(p), (p - 1) // n, p)
    root = pow(root, 3, p)          # another primitive n-th root
    x = _values(n, p, 2, np.uint32)
    A = ntt_cy.ntt(x, p, root=root)
    got = nd.ntt_large(da.from_array(x, chunks=300), p, root=root).compute()
    np.testing.assert_array_equal(got, A)
    back = nd.intt_large(da.from_array(A, chunks=256), p, root=root).compute()
    np.testing.assert_array_equal(back, x)


@pytest.mark.parametrize("p", [P32, P64])
def test_batched_ntt_any_axis(client, p):
    rng = np.random.default_rng(3)
    x = (rng.integers(0, 2**63, (6, 32, 5), dtype=np.uint64) % np.uint64(p))
    for axis, kind in ((1, "cyclic"), (-2, "negacyclic"), (0, "cyclic")):
        if x.shape[axis] & (x.shape[axis] - 1):
            continue
        X = da.from_array(x, chunks=(4, 9, 2))
        A = nd.ntt(X, p, axis=axis, kind=kind)
        np.testing.assert_array_equal(A.compute(), ntt_cy.ntt(x, p, axis=axis, kind=kind))
        back = nd.intt(A, p, axis=axis, kind=kind).compute()
        np.testing.assert_array_equal(back, x)
    y = x.transpose(1, 0, 2).copy()
    np.testing.assert_array_equal(nd.ntt(da.from_array(y, chunks=(32, 3, 5)), p, axis=0).compute(),
                                  ntt_cy.ntt(y, p, axis=0))


@pytest.mark.parametrize("modulus", [P32, 10**9 + 7, 2**64 - 59, 2**32 * 3 * 5, BN254],
                         ids=["ntt-prime", "1e9+7", "2^64-59", "composite", "bn254"])
def test_polymul_huge_matches_in_memory(client, modulus):
    rng = np.random.default_rng(4)
    a = rng.integers(-2**62, 2**62, 3000)
    b = rng.integers(0, 2**62, 2100)
    if modulus >= 1 << 64:
        a = np.array([int(v) * 7**40 for v in a], dtype=object)
    expected = ntt_cy.polymul(a, b, modulus)
    A = da.from_array(a, chunks=700)
    B = da.from_array(b, chunks=(1000, 600, 500))
    got = nd.polymul(A, B, modulus)
    assert got.dtype == expected.dtype
    result = got.compute()
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)
    for kind in ("cyclic", "negacyclic"):
        c = nd.polymul(A, da.from_array(np.resize(b, 3000), chunks=900), modulus, kind=kind)
        np.testing.assert_array_equal(c.compute(), ntt_cy.polymul(a, np.resize(b, 3000), modulus,
                                                                    kind=kind))


def test_polymul_batched_rows(client):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 2**40, (12, 96))
    b = rng.integers(0, 2**40, (1, 40))
    for m in (P32, 10**9 + 7, BN254):
        got = nd.polymul(da.from_array(a, chunks=(5, 30)), b, m)
        np.testing.assert_array_equal(got.compute(), ntt_cy.polymul(a, b, m))
    got = nd.polymul(da.from_array(a[:, :64], chunks=(4, 64)), a[:, :64], P32, kind="negacyclic")
    np.testing.assert_array_equal(got.compute(),
                                  ntt_cy.polymul(a[:, :64], a[:, :64], P32, kind="negacyclic"))


def test_graph_is_lazy_and_errors_reach_the_caller(client):
    def poisoned(block):
        raise RuntimeError("poisoned source block")

    x = da.zeros(1 << 10, dtype=np.uint32, chunks=256).map_blocks(poisoned, dtype=np.uint32)
    graphs = [nd.ntt_large(x, P32), nd.ntt(x, P32), nd.polymul(x, x, 10**9 + 7)]   # no error
    for g in graphs:
        with pytest.raises(RuntimeError, match="poisoned source block"):
            g.compute()
    bad = da.from_array(np.full(1 << 10, P32, dtype=np.uint32), chunks=256)
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        nd.ntt_large(bad, P32).compute()
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        nd.ntt(bad, P32).compute()


def test_graph_keys_meta_and_refusals():
    x = da.from_array(np.arange(1 << 10, dtype=np.uint32), chunks=100)
    assert nd.ntt_large(x, P32).name == nd.ntt_large(x, P32).name
    assert nd.ntt_large(x, P32).name != nd.ntt_large(x, P32, kind="negacyclic").name
    assert nd.ntt(x, P32).name == nd.ntt(x, P32).name
    assert nd.polymul(x, x, 7).name == nd.polymul(x, x, 7).name
    assert nd.ntt(x, P32).dtype == np.uint32 and nd.ntt(x, P32)._meta.dtype == np.uint32
    assert nd.ntt_large(x, P64).dtype == np.uint64
    assert nd.polymul(x, x, 2**64 - 59)._meta.dtype == np.uint64
    assert nd.polymul(x, x, BN254).dtype == object
    with pytest.raises(ValueError, match="rechunk"):
        nd.ntt(x, P32, rechunk=False)
    assert nd.ntt(x.rechunk(-1), P32, rechunk=False).numblocks == (1,)
    with pytest.raises(ValueError, match="power of two"):
        nd.ntt_large(x[:1000], P32)
    with pytest.raises(ValueError, match="n1"):
        nd.ntt_large(x, P32, n1=3)
    with pytest.raises(ValueError, match="1-D"):
        nd.ntt_large(x.reshape(32, 32), P32)
    with pytest.raises(ValueError, match="order"):
        nd.ntt_large(x, P32, order="bit-reversed")
    with pytest.raises(TypeError, match="integers"):
        nd.ntt(da.zeros(8, dtype=float), P32)


def _task_threads(array):
    """The `threads` argument of every ntt_cy block task in the array's graph."""
    functions = {getattr(blocks, name) for name in ("transform", "first_pass", "twist",
                                                     "multiply", "residues", "garner",
                                                     "product_rows")}
    found = []
    for task in dict(array.__dask_graph__()).values():
        func = getattr(task, "func", None)
        if func not in functions:
            continue
        args = [getattr(a, "value", a) for a in task.args]
        bound = inspect.signature(func).bind_partial(*args, **task.kwargs)
        found.append(bound.arguments["threads"])
    return found


def test_tasks_run_one_kernel_thread_by_default():
    x = da.from_array(np.arange(1 << 12, dtype=np.uint32), chunks=1000)
    for array in (nd.ntt_large(x, P32), nd.ntt(x, P32), nd.polymul(x, x, 10**9 + 7),
                  nd.polymul(x.reshape(4, 1024), x[:10], P32)):
        threads = _task_threads(array)
        assert threads and set(threads) == {1}
    assert set(_task_threads(nd.ntt_large(x, P32, threads=2))) == {2}


@pytest.mark.parametrize("method", ["tasks", "p2p"])
def test_worker_killed_mid_run(client, method):
    n = 1 << 20
    x = _values(n, P32, 6, np.uint32)
    X = da.from_array(x, chunks=n // 8)
    y = nd.intt_large(nd.ntt_large(X, P32, order="transposed", rechunk_method=method), P32,
                      order="transposed", rechunk_method=method)
    future = client.compute(y)
    deadline = time.monotonic() + 20
    while not client.processing() or not any(client.processing().values()):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    victim = sorted(client.scheduler_info()["workers"])[0]
    assert not future.done()
    try:
        client.run(os._exit, 1, workers=[victim])
    except (OSError, distributed.comm.CommClosedError):   # the worker died answering
        pass
    np.testing.assert_array_equal(future.result(timeout=60), x)
    client.wait_for_workers(2, timeout=30)
    assert victim not in client.scheduler_info()["workers"]   # it died; the nanny restarted it
