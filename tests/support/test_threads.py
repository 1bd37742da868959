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

import pytest

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
        print(code, build_info().get("openmp"), before == config()["threads"], before)
        """)
    code, openmp, unchanged, before = out.split(maxsplit=3)
    assert unchanged == "True"          # the parent's own threads are not affected
    if openmp == "True":
        assert code == "0"
        assert before.startswith(f"{_threads.cpu_count()} (workers=None")
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


@pytest.mark.parametrize("workers, want", [(1, 1), (3, 3), (-1, None), (None, None)])
def test_resolve_workers_counts(workers, want):
    from ntt_cy._support.threads import cpu_count

    assert resolve_workers(workers) == (cpu_count() if want is None else want)


@pytest.mark.parametrize("workers", [0, -2, 1025])
def test_resolve_workers_rejects(workers):
    with pytest.raises(ValueError, match="workers"):
        resolve_workers(workers)
