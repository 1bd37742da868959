"""asv benchmark suites for ntt_cy (see asv.conf.json at the repository root).

Modules are grouped by topic: bench_ntt (transforms), bench_poly (polymul, bigmul),
bench_arith (reduction primitives), bench_cuda (GPU), bench_import (import time).
Helpers shared by the suites live in _common.
"""
