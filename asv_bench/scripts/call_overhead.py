"""The time a small call spends outside its kernel: for each call form (ntt, intt,
NTTPlan.forward / inverse, each with and without out=, natural and bit-reversed order,
polymul) and length, the call's time (one row, best of --repeat loops), the kernel's
time (a batch of 256 rows through the same call, divided by 256) and their difference,
the overhead.

    python asv_bench/scripts/call_overhead.py [--sizes 256,1024] [--forms ntt,forward]
                                             [--repeat 7] [--json FILE]

One thread (workers=1).  Moduli: 998244353 (uint32 lanes), 1337006139375617 (uint64
lanes), and the lattice ones on the lengths their schemes use: 8380417 (n = 256) and
12289 (n = 512, 1024), negacyclic.  Inputs are of the lanes' dtype, reduced.  To compare
two trees, run this in each (PYTHONPATH=<tree>), alternated: a machine's speed drifts
between runs minutes apart.
"""
import argparse
import json
import sys
import timeit

import numpy as np

import ntt_cy

SIZES = (256, 512, 1024, 2048, 4096)
BATCH = 256
# (modulus, kind, lengths or None for every size)
FIELDS = ((998244353, "cyclic", None), (1337006139375617, "cyclic", None),
          (8380417, "negacyclic", (256,)), (12289, "negacyclic", (512, 1024)))
FORMS = ("ntt", "intt", "ntt_out", "intt_out", "forward", "forward_br", "forward_out",
         "forward_out_br", "inverse", "inverse_br", "inverse_out", "inverse_out_br", "polymul")


def best_us(fn, repeat, target_s=0.01):
    """Best time of one call of fn in microseconds, over `repeat` loops of ~target_s."""
    fn()
    number = max(1, int(target_s / max(timeit.timeit(fn, number=3) / 3, 1e-9)))
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def calls(form, plan, p, kind, row, batch, rhs_row, rhs_batch):
    """(one-row call, batch call) of a form: functions of no arguments."""
    one_out, many_out = np.empty_like(row), np.empty_like(batch)
    if form == "polymul":
        return (lambda: ntt_cy.polymul(row, rhs_row, p, kind=kind, workers=1),
                lambda: ntt_cy.polymul(batch, rhs_batch, p, kind=kind, workers=1))
    if form in ("ntt", "intt", "ntt_out", "intt_out"):
        fn = ntt_cy.ntt if form.startswith("ntt") else ntt_cy.intt
        if form.endswith("_out"):
            return (lambda: fn(row, p, kind=kind, out=one_out, workers=1),
                    lambda: fn(batch, p, kind=kind, out=many_out, workers=1))
        return (lambda: fn(row, p, kind=kind, workers=1),
                lambda: fn(batch, p, kind=kind, workers=1))
    method = plan.forward if form.startswith("forward") else plan.inverse
    br = form.endswith("_br")
    if "_out" in form:
        return (lambda: method(row, out=one_out, bit_reversed=br, workers=1),
                lambda: method(batch, out=many_out, bit_reversed=br, workers=1))
    return (lambda: method(row, bit_reversed=br, workers=1),
            lambda: method(batch, bit_reversed=br, workers=1))


def measure(sizes, forms, repeat):
    rng = np.random.default_rng(7)
    rows = []
    for p, kind, lengths in FIELDS:
        dt = np.uint32 if p < 2**32 else np.uint64
        for n in sizes:
            if lengths is not None and n not in lengths:
                continue
            plan = ntt_cy.NTTPlan(n, p, kind=kind)
            batch = rng.integers(0, p, (BATCH, n)).astype(dt)
            rhs = rng.integers(0, p, (BATCH, n)).astype(dt)
            for form in forms:
                one, many = calls(form, plan, p, kind, batch[0].copy(), batch, rhs[0].copy(), rhs)
                call = best_us(one, repeat)
                kernel = best_us(many, repeat, 0.05) / BATCH
                rows.append({"form": form, "p": p, "kind": kind, "n": n, "call_us": call,
                             "kernel_us": kernel, "overhead_us": call - kernel})
                print(f"{form:15s} {kind:10s} p={p:<17d} n={n:<5d} call {call:7.2f}us "
                      f"kernel {kernel:7.2f}us overhead {call - kernel:6.2f}us", flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="comma-separated lengths (powers of two)")
    ap.add_argument("--forms", default=",".join(FORMS), help="comma-separated call forms: "
                    + ", ".join(FORMS))
    ap.add_argument("--repeat", type=int, default=7, help="loops per figure (best kept)")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = ap.parse_args(argv)
    forms = args.forms.split(",")
    unknown = [f for f in forms if f not in FORMS]
    if unknown or args.repeat < 1:
        print(f"error: unknown forms {unknown}" if unknown else "error: --repeat must be >= 1",
              file=sys.stderr)
        return 2
    rows = measure([int(s) for s in args.sizes.split(",")], forms, args.repeat)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
