"""Small calls in a loop of their own: polymul (linear, cyclic, negacyclic; of arrays
and of lists), ntt, intt and NTTPlan.forward at lengths where the call itself, not the
arithmetic, is most of the time; with --flint, python-flint's nmod_poly product beside
each linear one.

    python asv_bench/scripts/small_calls.py [--flint] [--repeat 7] [--json FILE]

Each figure is the best of --repeat samples of a loop of calls (one thread), in
microseconds.  To compare two trees, run it in each (PYTHONPATH=<tree>), alternated:
the machine's speed drifts between runs minutes apart.
"""
import argparse
import json
import sys
import timeit

import numpy as np

import ntt_cy

LINEAR_MODULI = (998244353, 1337006139375617, 10**9 + 7, 2**61 - 1)
LINEAR_SIZES = (16, 32, 64, 256, 1024)
WRAPPED = ((8380417, 256, "negacyclic"), (8380417, 1024, "negacyclic"),
           (998244353, 256, "cyclic"), (10**9 + 7, 256, "negacyclic"))
# products of two Python lists (python-flint beside: both operands built from the lists)
LISTS = ((998244353, 16), (998244353, 256), (998244353, 4096), (10**9 + 7, 256))
TRANSFORMS = ((998244353, 16, "cyclic"), (998244353, 256, "cyclic"),
              (998244353, 1024, "cyclic"), (8380417, 256, "negacyclic"))


def best_us(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def operand(rng, m, n):
    """n values below m as uint32 (m <= 2^32) or uint64 lanes."""
    values = rng.integers(0, min(m, 2**63), n, dtype=np.uint64)
    return values.astype(np.uint32) if m <= 2**32 else values


def measure(repeat, with_flint):
    rng = np.random.default_rng(7)
    rows = []   # (case, ntt_cy us, python-flint us or None)
    flint = None
    if with_flint:
        import flint
    for m in LINEAR_MODULI:
        for n in LINEAR_SIZES:
            a, b = operand(rng, m, n), operand(rng, m, n)
            number = 2000 if n < 1024 else 300
            ours = best_us(lambda: ntt_cy.polymul(a, b, m, workers=1), number, repeat)
            theirs = None
            if flint is not None:
                fa, fb = flint.nmod_poly(a.tolist(), m), flint.nmod_poly(b.tolist(), m)
                theirs = best_us(lambda: fa * fb, number, repeat)
            rows.append((f"polymul linear m={m} n={n}", ours, theirs))
    for m, n in LISTS:
        a, b = operand(rng, m, n).tolist(), operand(rng, m, n).tolist()
        number = 2000 if n < 1024 else 200
        ours = best_us(lambda: ntt_cy.polymul(a, b, m, workers=1), number, repeat)
        theirs = None
        if flint is not None:
            theirs = best_us(lambda: flint.nmod_poly(a, m) * flint.nmod_poly(b, m), number,
                             repeat)
        rows.append((f"polymul lists m={m} n={n}", ours, theirs))
    for m, n, kind in WRAPPED:
        a, b = operand(rng, m, n), operand(rng, m, n)
        rows.append((f"polymul {kind} m={m} n={n}",
                     best_us(lambda: ntt_cy.polymul(a, b, m, kind=kind, workers=1), 1000,
                             repeat), None))
    for p, n, kind in TRANSFORMS:
        a = operand(rng, p, n)
        spectrum = ntt_cy.ntt(a, p, kind=kind)
        plan = ntt_cy.NTTPlan(n, p, kind=kind)
        rows.append((f"ntt {kind} p={p} n={n}",
                     best_us(lambda: ntt_cy.ntt(a, p, kind=kind, workers=1), 2000, repeat), None))
        rows.append((f"intt {kind} p={p} n={n}",
                     best_us(lambda: ntt_cy.intt(spectrum, p, kind=kind, workers=1), 2000,
                             repeat), None))
        rows.append((f"NTTPlan.forward {kind} p={p} n={n}",
                     best_us(lambda: plan.forward(a), 2000, repeat), None))
        if n == 256:
            values = a.tolist()
            rows.append((f"ntt {kind} p={p} n={n} of a list",
                         best_us(lambda: ntt_cy.ntt(values, p, kind=kind, workers=1), 2000,
                                 repeat), None))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--flint", action="store_true", help="time python-flint's product too")
    ap.add_argument("--repeat", type=int, default=7, help="samples per figure (best kept)")
    ap.add_argument("--json", metavar="FILE", help="also write {case: [us, flint us]}")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        print("error: --repeat must be >= 1", file=sys.stderr)
        return 2
    if args.flint:
        try:
            import flint  # noqa: F401
        except ImportError:
            print("error: --flint needs python-flint (pip install -e \".[compare]\")",
                  file=sys.stderr)
            return 2
    rows = measure(args.repeat, args.flint)
    print(f"{'case':48s} {'ntt_cy':>9s}" + (f" {'flint':>9s} {'flint/ntt_cy':>12s}"
                                            if args.flint else ""))
    for case, ours, theirs in rows:
        line = f"{case:48s} {ours:7.2f}us"
        if theirs is not None:
            line += f" {theirs:7.2f}us {theirs / ours:11.2f}x"
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({case: [ours, theirs] for case, ours, theirs in rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
