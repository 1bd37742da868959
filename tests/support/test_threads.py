"""ntt_cy/_support/threads.py: what workers= resolves to, and transforms in forked children.

libgomp's thread pool does not survive fork(): without ntt_cy/_support/threads.py's fork handler, a
child of a process that has run a two-thread transform hangs in its own first one.
Each scenario runs in a fresh interpreter (whether this pytest process has started
threads depends on the tests before), under a timeout, so a hang fails the test."""
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ntt_cy
from ntt_cy._support import threads as _threads
from ntt_cy._support.threads import resolve_workers

P = 998244353


def run_script(body: str, timeout: float = 120) -> str:
    source = textwrap.dedent("""
        import os, sys
        import numpy as np
        import ntt_cy
        from ntt_cy._support import threads as _threads
        P = 998244353
        x = np.arange(1 << 16, dtype=np.uint32)

        def in_child(work):
            # fork, run work() in the child; its exit code: 0 if it returned True
            pid = os.fork()
            if pid == 0:
                ok = False
                try:
                    ok = bool(work())
                finally:
                    os._exit(0 if ok else 3)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        """) + textwrap.dedent(body)
    # its own process group, so that a hang takes its forked children down with it
    proc = subprocess.Popen([sys.executable, "-c", source], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"hung for {timeout} s (killed)")
    assert proc.returncode == 0, err
    return out


def test_child_of_a_threaded_parent_runs_on_one_thread_and_finishes():
    out = run_script("""
        want = ntt_cy.ntt(x, P, workers=2)     # starts libgomp's two-thread pool
        code = in_child(lambda: _threads.forked_single_thread()
                        and _threads.resolve_workers(2) == 1
                        and np.array_equal(ntt_cy.ntt(x, P, workers=2), want)
                        and np.array_equal(ntt_cy.intt(want, P, workers=-1), x))
        print("child", code, "parent", _threads.forked_single_thread(),
              _threads.resolve_workers(2))
        """)
    assert out.split() == ["child", "0", "parent", "False", "2"]


def test_show_config_says_when_a_forked_child_runs_on_one_thread():
    out = run_script("""
        from ntt_cy._support.config import build_info, config
        before = config()["threads"]
        ntt_cy.ntt(x, P, workers=2)
        code = in_child(lambda: config()["threads"].startswith("1 in this process: forked"))
        print(code, build_info().get("openmp"), before == config()["threads"],
              ntt_cy.get_workers(), before)
        """)
    code, openmp, unchanged, default, before = out.split(maxsplit=4)
    assert unchanged == "True"          # the parent's own threads are not affected
    if openmp == "True":
        assert code == "0"
        assert before.startswith(f"{default} (workers=None: get_workers()")
    else:
        assert before.startswith("1 (built without OpenMP)")


def test_child_of_a_child_stays_on_one_thread():
    out = run_script("""
        want = ntt_cy.ntt(x, P, workers=2)
        code = in_child(lambda: in_child(lambda: _threads.resolve_workers(2) == 1
                        and np.array_equal(ntt_cy.ntt(x, P, workers=2), want)) == 0)
        print(code)
        """)
    assert out.split() == ["0"]


def test_child_of_a_parent_without_threads_keeps_them():
    # tiny jobs with workers=2 run on one thread and validate only: no threads asked for
    out = run_script("""
        small = ntt_cy.ntt(np.arange(16, dtype=np.uint32), P, workers=2)
        ntt_cy.polymul([1, 2], [3, 4], 7, workers=2)
        ntt_cy.polymul(np.arange(300), np.arange(300), 10**9 + 7, workers=2)
        ntt_cy.bigmul(3**1000, 5**1000, workers=2)
        want = ntt_cy.ntt(x, P, workers=1)
        code = in_child(lambda: not _threads.forked_single_thread()
                        and _threads.resolve_workers(2) == 2
                        and np.array_equal(ntt_cy.ntt(x, P, workers=2), want))
        print(code)
        """)
    assert out.split() == ["0"]


def test_fork_pool_after_threaded_products():
    # multiprocessing's default start method on Linux, after a threaded CRT product
    out = run_script("""
        import multiprocessing
        rng = np.random.default_rng(5)
        a = rng.integers(0, 10**9 + 7, (4, 1 << 13))
        b = rng.integers(0, 10**9 + 7, (4, 1 << 13))
        want = ntt_cy.polymul(a, b, 10**9 + 7, workers=2)

        def row(i):
            return ntt_cy.polymul(a[i], b[i], 10**9 + 7, workers=2)

        with multiprocessing.get_context("fork").Pool(2) as pool:
            got = pool.map(row, range(4))
        print(all(np.array_equal(g, w) for g, w in zip(got, want)))
        """)
    assert out.split() == ["True"]


def test_resolve_workers_counts():
    from ntt_cy._support.threads import cpu_count, get_workers

    cores = cpu_count()
    assert resolve_workers(1) == 1 and resolve_workers(3) == 3
    assert resolve_workers(None) == get_workers()
    # -k counts back from the usable CPUs, as scipy.fft's workers=
    assert [resolve_workers(-k) for k in range(1, cores + 1)] == list(range(cores, 0, -1))


def test_resolve_workers_rejects():
    from ntt_cy._support.threads import cpu_count

    cores = cpu_count()
    for workers in (0, -cores - 1, -10**6):
        with pytest.raises(ValueError, match=f"-1 to -{cores} to count back"):
            resolve_workers(workers)
    with pytest.raises(ValueError, match="at most 1024"):
        resolve_workers(1025)
    for workers in (1.0, "2", True):
        with pytest.raises(TypeError, match="workers must be an integer"):
            resolve_workers(workers)


def test_set_workers_is_a_per_thread_default():
    import threading

    outside = ntt_cy.get_workers()
    seen = {}
    with ntt_cy.set_workers(3):
        assert ntt_cy.get_workers() == 3 and resolve_workers(None) == 3
        with ntt_cy.set_workers(1):
            assert ntt_cy.get_workers() == 1
            with ntt_cy.set_workers(None):   # the default again, inside
                assert ntt_cy.get_workers() == outside
        assert ntt_cy.get_workers() == 3
        # another thread keeps its own default
        worker = threading.Thread(target=lambda: seen.setdefault("other", ntt_cy.get_workers()))
        worker.start()
        worker.join()
        assert resolve_workers(2) == 2   # an explicit count wins
    assert seen["other"] == outside and ntt_cy.get_workers() == outside
    with ntt_cy.set_workers(-1):
        assert ntt_cy.get_workers() == _threads.cpu_count()
    try:   # restored after an exception too
        with ntt_cy.set_workers(2):
            raise KeyError
    except KeyError:
        pass
    assert ntt_cy.get_workers() == outside
    for bad, exc in ((0, ValueError), (2.5, TypeError)):
        with pytest.raises(exc, match="workers"):
            ntt_cy.set_workers(bad)


def test_default_follows_omp_num_threads_and_the_affinity_mask():
    from ntt_cy._support.config import build_info

    openmp = build_info().get("openmp")   # (a build without OpenMP: always 1)
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    code = "import ntt_cy; print(ntt_cy.get_workers())"
    for setting, want in (("1", 1), ("3", 3), ("2,1", 2), (None, len(os.sched_getaffinity(0)))):
        want = want if openmp else 1
        run_env = dict(env, **({} if setting is None else {"OMP_NUM_THREADS": setting}))
        out = subprocess.run([sys.executable, "-c", code], env=run_env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.split() == [str(want)], (setting, out.stderr)
    # a process confined to one CPU (taskset): libgomp counts its mask when it loads
    out = subprocess.run([sys.executable, "-c", "import os; os.sched_setaffinity(0, {min("
                          "os.sched_getaffinity(0))}); " + code],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["1"], out.stderr


def test_threadpoolctl_limits_the_default():
    from threadpoolctl import threadpool_info, threadpool_limits

    from ntt_cy._support.config import build_info

    # (threadpoolctl acts on OpenMP runtimes: a build without one has nothing to limit)
    openmp = build_info().get("openmp")
    assert any(info["user_api"] == "openmp" for info in threadpool_info()) or not openmp
    before = ntt_cy.get_workers()
    x = np.arange(1 << 16, dtype=np.uint32)
    want = ntt_cy.ntt(x, P, workers=1)
    with threadpool_limits(limits=1, user_api="openmp"):
        assert ntt_cy.get_workers() == 1 and resolve_workers(None) == 1
        assert np.array_equal(ntt_cy.ntt(x, P), want)
        with ntt_cy.set_workers(2):   # an explicit count still wins
            assert ntt_cy.get_workers() == 2
    assert ntt_cy.get_workers() == before


def test_get_workers_costs_a_lookup():
    import timeit

    # the default is read on every call large enough for threads: a thread-local
    # attribute and one call into the OpenMP runtime, no system call
    best = min(timeit.repeat(ntt_cy.get_workers, number=20000, repeat=5)) / 20000
    assert best < 1e-6, f"{best * 1e9:.0f} ns a call"
