"""Static throughput of the AVX-512 kernel loops, for machines without AVX-512.

Compiles small C wrappers around the kernel headers for an AVX-512 CPU (gcc -O3
-march=CPU -S), finds each wrapper's loops in the assembly and runs llvm-mca on their
bodies.  Each case sets a kernel beside the one it replaces in the same source tree,
so both lines come from one compile; the figures are cycles per loop iteration (and per
256 values) in llvm-mca's model of the CPU, not measurements.  Loads are modelled as L1
hits and the loop-carried overheads the model misses are missed: use it to compare
loops, and time them on the hardware.

    python asv_bench/scripts/mca_avx512.py                 # icelake-server
    python asv_bench/scripts/mca_avx512.py --cpu sapphirerapids

Needs gcc and llvm-mca (Debian: apt install llvm).
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# name: (what it does per iteration, values per iteration, C body of the wrapper)
CASES = {
    "edge stages, in-register shuffles": (
        "64 values, 4 stages", 64,
        "return ntt32_small_stages(1, a, n, tw, twq, p, 0, 0, NTT_LAZY);"),
    "edge stages, tiled (16 x 16)": (
        "256 values, 4 stages", 256,
        "return ntt32_small_stages_tiled(1, a, n, tw, twq, p, 0, 0, NTT_LAZY);"),
    "permutation, plain": (
        "a pair of 16 x 16 tiles", 512,
        "return bitrev32_inplace(a, (int)n, rev, 0, 64, p);"),
    "permutation with the DIF edge stages": (
        "a pair of 16 x 16 tiles", 512,
        "return bitrev32_inplace_dif_tail(a, (int)n, rev, 0, 64, p, tw, twq, p, 0, 0,"
        " NTT_LAZY);"),
    "CRT reconstruction k = 3, 64-bit lanes": (
        "16 coefficients", 16,
        "return (int)vec_garner32_mod(GARNER32_WIDE, 3, rows, 0, n, wide, wide, wide, wide,"
        " p, wide, wide, 0, out64, out32);"),
    "CRT reconstruction k = 3, lazy 32-bit lanes": (
        "16 coefficients", 16,
        "return (int)vec_garner32_mod(GARNER32_LAZY_NO_OFFSET, 3, rows, 0, n, wide, wide, wide,"
        " wide, p, wide, wide, 0, out64, out32);"),
}

PRELUDE = """#include "simd/ntt32/dispatch.h"
#include "simd/bitrev/dispatch.h"
#include "simd/garner/dispatch.h"
"""
SIGNATURE = ("__attribute__((flatten)) int {name}(uint32_t *a, size_t n, const uint32_t *tw, const uint32_t *twq, "
             "uint32_t p, const uint32_t *rev, const uint32_t *const *rows, "
             "const uint64_t *wide, uint64_t *out64, uint32_t *out32)")


def wrappers():
    """The C source: one function per case, named case_0, case_1, ..., each with every
    kernel call inlined (flatten), so its loops are its own."""
    parts = [PRELUDE]
    for i, (_, _, body) in enumerate(CASES.values()):
        parts.append(SIGNATURE.format(name=f"case_{i}") + " {\n    " + body + "\n}\n")
    return "".join(parts)


def loops(asm):
    """{function: [loop body, ...]} for every backward jump in gcc's assembly; a body
    is the instruction lines between the label and the jump."""
    found, fn, labels = {}, None, {}
    lines = asm.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^([A-Za-z_][\w.]*):$", line)
        if m:
            fn, labels = m.group(1), {}
            continue
        m = re.match(r"^(\.L\w+):", line)
        if m:
            labels[m.group(1)] = i
            continue
        m = re.match(r"\s+j\w+\s+(\.L\w+)", line)
        if m and m.group(1) in labels:
            body = [x for x in lines[labels[m.group(1)] + 1:i + 1]
                    if x.startswith("\t") and not x.startswith("\t.")]
            found.setdefault(fn, []).append(body)
    return found


def compile_asm(cpu, workdir):
    src = pathlib.Path(workdir) / "cases.c"
    src.write_text(wrappers())
    out = pathlib.Path(workdir) / "cases.s"
    subprocess.run(["gcc", "-O3", f"-march={cpu}", "-fno-asynchronous-unwind-tables",
                    f"-I{ROOT / 'ntt_cy' / '_kernels'}", "-S", str(src), "-o", str(out)], check=True)
    return out.read_text()


def mca_cycles(body, cpu, iterations=200):
    """llvm-mca's simulated cycles per iteration of one loop body."""
    res = subprocess.run(["llvm-mca", f"-mcpu={cpu}", f"-iterations={iterations}"],
                         input="\n".join(body) + "\n", capture_output=True, text=True,
                         check=True)
    total = int(re.search(r"Total Cycles:\s+(\d+)", res.stdout).group(1))
    return total / iterations


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cpu", default="icelake-server")
    args = ap.parse_args(argv)
    if not shutil.which("llvm-mca"):
        sys.exit("llvm-mca not found (Debian: apt install llvm)")
    with tempfile.TemporaryDirectory() as tmp:
        found = loops(compile_asm(args.cpu, tmp))
    print(f"llvm-mca -mcpu={args.cpu}, LAZY family, p < 2^30 (a model, not a measurement)")
    print(f"{'case':46} {'per iteration':24} {'instrs':>6} {'cycles':>7} {'per 256':>8}")
    for i, (name, (unit, values, _)) in enumerate(CASES.items()):
        body = max(found[f"case_{i}"], key=len)   # the main loop; the others: its tail
        cycles = mca_cycles(body, args.cpu)
        print(f"{name:46} {unit:24} {len(body):6d} {cycles:7.1f} {cycles * 256 / values:8.1f}")


if __name__ == "__main__":
    main()
