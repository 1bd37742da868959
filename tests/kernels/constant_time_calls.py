"""The calls named constant-time, each run once with its inputs marked secret.

Run by tests/kernels/test_constant_time.py under valgrind's memcheck: argv[1] is a
shared library exposing mark_secret / mark_public / error_count (memcheck's client
requests VALGRIND_MAKE_MEM_UNDEFINED, VALGRIND_MAKE_MEM_DEFINED, VALGRIND_COUNT_ERRORS).
Marking an input undefined makes memcheck report every conditional jump and every
address computed from it (secret-dependent branches and memory indices), in the
kernels and in the Python and numpy code the call runs; the result is marked defined
again before Python looks at it.  Prints one JSON object: each call's label -> the
number of errors memcheck found during that call.  The label "control ..." is a call
that compares its input with p (no assume_reduced): it must report errors, which shows
that the marking reaches the kernels.
"""
import ctypes
import json
import sys

import numpy as np

import ntt_cy

# Dilithium's ring, Falcon's, Kyber's modulus at the transform sizes it has roots for
SIZES = [(8380417, 256), (12289, 512), (3329, 256), (3329, 128)]
KINDS = ["negacyclic", "cyclic"]
LANES = [np.uint32, np.uint64]
FAMILIES = ["montgomery", "barrett", "lazy"]


def main(shim_path):
    shim = ctypes.CDLL(shim_path)
    shim.mark_secret.argtypes = shim.mark_public.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    shim.error_count.restype = ctypes.c_ulong
    rng = np.random.default_rng(1)
    errors = {}

    def run(label, call, *inputs):
        call()   # once in the open: tables, plans and prepared products are built here
        for x in inputs:
            shim.mark_secret(x.ctypes.data, x.nbytes)
        before = shim.error_count()
        result = call()
        found = shim.error_count() - before
        for x in inputs + (result,):
            shim.mark_public(x.ctypes.data, x.nbytes)
        errors[label] = int(found)

    for q, n in SIZES:
        for kind in KINDS:
            if (q - 1) % (2 * n if kind == "negacyclic" else n):
                continue   # no transform of this kind and length mod q
            for lane in LANES:
                a = rng.integers(0, q, n).astype(lane)
                b = rng.integers(0, q, n).astype(lane)
                tag = f"q={q} n={n} {kind} {np.dtype(lane).name}"
                run(f"ntt {tag}", lambda: ntt_cy.ntt(a, q, kind=kind, assume_reduced=True), a)
                run(f"intt {tag}", lambda: ntt_cy.intt(a, q, kind=kind, assume_reduced=True), a)
                run(f"polymul {tag}",
                    lambda: ntt_cy.polymul(a, b, q, kind=kind, assume_reduced=True), a, b)
                run(f"polymul square {tag}",
                    lambda: ntt_cy.polymul(a, a, q, kind=kind, assume_reduced=True), a)
                for family in FAMILIES:
                    plan = ntt_cy.NTTPlan(n, q, kind=kind, dtype=lane, reduction=family)
                    for order in (False, True):
                        ptag = f"{tag} {family} bit_reversed={order}"
                        run(f"NTTPlan.forward {ptag}",
                            lambda: plan.forward(a, bit_reversed=order, assume_reduced=True), a)
                        run(f"NTTPlan.inverse {ptag}",
                            lambda: plan.inverse(a, bit_reversed=order, assume_reduced=True), a)
                rows = rng.integers(0, q, (3, n)).astype(lane)   # a batch: the general route
                other = rows.astype(np.uint64 if lane is np.uint32 else np.uint32)
                plan = ntt_cy.NTTPlan(n, q, kind=kind, dtype=lane)
                run(f"NTTPlan.forward batch {tag}",
                    lambda: plan.forward(rows, assume_reduced=True), rows)
                run(f"NTTPlan.inverse batch {tag}",
                    lambda: plan.inverse(rows, assume_reduced=True), rows)
                run(f"NTTPlan.forward batch of the other lanes {tag}",
                    lambda: plan.forward(other, assume_reduced=True), other)
                out = np.empty_like(other)
                run(f"NTTPlan.forward batch into out {tag}",
                    lambda: plan.forward(other, out=out, assume_reduced=True), other)
    a = rng.integers(0, 12289, 512).astype(np.uint32)
    run("control ntt without assume_reduced", lambda: ntt_cy.ntt(a, 12289), a)
    print(json.dumps(errors))


if __name__ == "__main__":
    main(sys.argv[1])
