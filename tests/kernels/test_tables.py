"""Twiddle-table construction (ntt_cy/_kernels/ntt/tables.pxi) against Python ints: the
powers of a root and the Shoup quotients, at the edges of each lane's primes, and the
plan's tables placed where the kernels read them."""
import numpy as np
import pytest

from ntt_cy import NTTPlan
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.aligned import ALIGN, PAGE, TABLE_TAIL_BYTES, readable_tail
from ntt_cy.plan import table_page_offset
from ntt_oracle import PRIME_BELOW_2_62, PRIME_BELOW_2_63

# 2: the one even prime; then each side of 2^31, 2^32 (uint32 lanes), 2^63 (where
# powers leave Shoup steps for divisions) and 2^64 (uint64 lanes).
P32 = [2, 3, 3329, 998244353, 2013265921, 2281701377, 2**32 - 5]
P64 = [2, 3, 998244353, 2**32 - 5, 2**32 + 15, 1337006139375617, PRIME_BELOW_2_62,
       PRIME_BELOW_2_63, 2**63 + 29, 2**64 - 2**32 + 1, 2**64 - 59]
CASES = [(p, np.uint32) for p in P32] + [(p, np.uint64) for p in P64]


def placed(table, key):
    """Whether `table` lies where aligned_empty puts table `key` (table_page_offset, its
    readable tail): one the kernels can take as it is."""
    boundary = PAGE if table.nbytes >= PAGE else ALIGN
    return (table.flags.c_contiguous
            and table.ctypes.data % boundary == (table_page_offset(key) if boundary == PAGE else 0)
            and readable_tail(table) >= TABLE_TAIL_BYTES)


def residues(p, count, seed):
    """Residues mod p with the edges that break reductions: 0, 1, p - 1, p - 2, p / 2."""
    rng = np.random.default_rng(seed)
    fixed = [v for v in (0, 1, 2, p // 2, p - 2, p - 1) if 0 <= v < p]
    rand = [int(x) % p for x in rng.integers(0, 2**63, count, dtype=np.uint64)]
    return fixed + rand + [p - 1 - v for v in rand]


@pytest.mark.parametrize("p,dtype", CASES)
def test_shoup_quotients_match_python(p, dtype):
    bits = 8 * np.dtype(dtype).itemsize
    w = residues(p, 300, p % 2**32)
    out = np.empty(len(w), dtype=dtype)
    _ntt.shoup_quotients(np.array(w, dtype=dtype), out, p)
    assert [int(q) for q in out] == [(v << bits) // p for v in w]


@pytest.mark.parametrize("p,dtype", CASES)
def test_powers_match_python(p, dtype):
    for base in residues(p, 3, p % 1000) + [p + 5, 2**63 + 1]:   # bases >= p reduce first
        for start in (1, p - 1, 7 % p):
            out = np.empty(40, dtype=dtype)
            _ntt.powers(out, base % 2**64, start, p)
            assert [int(x) for x in out] == [start * pow(base, i, p) % p for i in range(40)]


@pytest.mark.parametrize("reduction,p,dtype,kind", [
    ("lazy", 998244353, np.uint32, "cyclic"),
    ("montgomery", 998244353, np.uint32, "negacyclic"),
    ("lazy", 1337006139375617, np.uint64, "negacyclic"),
    ("barrett", 2**64 - 2**32 + 1, np.uint64, "cyclic"),
])
def test_plan_tables_are_built_in_place(reduction, p, dtype, kind):
    # every table where the kernels want it (page offset, readable tail), and the
    # twiddles those of the root: fwd_tw[h + j] = w_{2h}^j, inv_tw its inverse
    n = 2**12
    plan = NTTPlan(n, p, dtype=dtype, kind=kind, reduction=reduction)
    tables = plan.tables(reduction).arrays
    for key, table in tables.items():
        assert placed(table, key), key
        assert table.ctypes.data % 4096 == table_page_offset(key)
    assert list(tables["bitrev"][:4]) == [0, n // 2, n // 4, 3 * n // 4]
    if reduction == "lazy":
        bits = 8 * np.dtype(dtype).itemsize
        tw, q = tables["fwd_tw"], tables["fwd_tw_q"]
        assert all(int(q[i]) == (int(tw[i]) << bits) // p for i in range(1, n, 97))
        w = plan.root * plan.root % p if kind == "negacyclic" else plan.root
        h = n // 2
        assert [int(x) for x in tw[h:h + 5]] == [pow(w, j, p) for j in range(5)]
