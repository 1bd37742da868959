"""ntt_cy.dask on a two-worker LocalCluster: one 2^24-point transform and 2^22 x 2^22
products (an NTT prime and 10^9 + 7), each checked against the in-memory result.

    python docs/examples/dask_cluster.py [--address tcp://scheduler:8786] [--log2n 24]
"""
import argparse
import logging
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import ntt_cy
import ntt_cy.dask


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--address", help="a running scheduler (default: a LocalCluster)")
    parser.add_argument("--log2n", type=int, default=24, help="transform length 2^log2n")
    args = parser.parse_args()
    cluster = None
    if args.address:
        client = Client(args.address)
    else:
        # (silence_logs: the workers' own log lines, e.g. the p2p rechunk's notes, from
        # errors up only; a task's exception still reaches this process)
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)

    q = 469762049                                   # 2^26 | q - 1
    n = 1 << args.log2n
    x = da.random.default_rng(1).integers(0, q, n, dtype=np.uint32, chunks=n // 8)
    start = time.perf_counter()
    A = ntt_cy.dask.ntt_large(x, q).compute()
    print(f"ntt_large, n = 2^{args.log2n}, p = {q}: {time.perf_counter() - start:.2f} s")
    assert (A == ntt_cy.ntt(x.compute(), q)).all()

    p = 998244353                                   # 2^23 | p - 1: products up to 2^23

    half = n // 4                                   # 2^22 x 2^22 at the default size
    a = da.random.default_rng(2).integers(0, 2**62, half, chunks=half // 4)
    b = da.random.default_rng(3).integers(0, 2**62, half, chunks=half // 4)
    for m in (p, 10**9 + 7):
        start = time.perf_counter()
        c = ntt_cy.dask.polymul(a, b, m).compute()
        print(f"polymul {half} x {half} mod {m}: {time.perf_counter() - start:.2f} s")
        assert (c == ntt_cy.polymul(a.compute(), b.compute(), m)).all()
    print("all results match the in-memory ones")
    client.close()
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":
    main()
