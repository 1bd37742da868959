"""64-byte alignment of everything the kernels sweep (ntt_cy._support.aligned)."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy._support import scratch as _scratch
from ntt_cy._support.aligned import ALIGN, aligned_copy, aligned_empty
from ntt_cy.plan import get_plan


def aligned(a):
    return a.ctypes.data % ALIGN == 0


@pytest.mark.parametrize("shape", [1, 7, (3, 5), (2, 1024)])   # (empty arrays have no data)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.uint64])
def test_aligned_empty_and_copy(shape, dtype):
    a = aligned_empty(shape, dtype)
    assert a.shape == ((shape,) if isinstance(shape, int) else shape) and a.dtype == dtype
    assert a.flags.c_contiguous and a.flags.writeable and aligned(a)
    src = np.arange(a.size, dtype=dtype).reshape(a.shape)
    b = aligned_copy(src)
    assert aligned(b) and np.array_equal(b, src) and not np.shares_memory(b, src)


def test_kernel_operands_are_aligned():
    p = 998244353
    plan = get_plan(1 << 12, p)
    for family in ("lazy", "montgomery", "barrett"):
        assert all(aligned(t) for t in plan.tables(family).arrays.values())
    x = np.arange(1 << 12) % p
    assert aligned(ntt_cy.ntt(x, p)) and aligned(ntt_cy.intt(x, p))
    for _ in range(3):   # (fresh arrays: not aligned by chance three times over)
        # the prepared single-row products with transforms of 8192 values or more too
        assert aligned(ntt_cy.polymul(x, x[::-1].copy(), p))
        assert aligned(ntt_cy.polymul(x, x, 10**9 + 7))   # (the CRT product)
        assert aligned(ntt_cy.polymul(np.tile(x, 2), np.tile(x, 2), p, kind="negacyclic"))
    assert aligned(_scratch.scratch("t-align", (3, 100), np.uint32))
    big = _scratch.scratch("t-align-big", (_scratch.LIMIT_BYTES // 8 + 1,), np.uint64)
    assert aligned(big)


def test_page_placement_of_tables_and_data():
    # See ntt_cy/_support/aligned.pyx: data at a page start, stage twiddles and their Shoup
    # quotients a quarter and three quarters into a page, so that a radix-4 group's
    # streams never share one L1 set.
    from ntt_cy._support.aligned import PAGE, PAGE_DATA, PAGE_QUOTIENTS, PAGE_TWIDDLES

    plan = get_plan(1 << 12, 998244353)
    tables = plan.tables("lazy").arrays
    offsets = {key: table.ctypes.data % PAGE for key, table in tables.items()}
    assert offsets["fwd_tw"] == offsets["inv_tw"] == PAGE_TWIDDLES
    assert offsets["fwd_tw_q"] == offsets["inv_tw_q"] == PAGE_QUOTIENTS
    assert len({PAGE_DATA, PAGE_TWIDDLES, PAGE_QUOTIENTS}) == 3
    x = np.arange(1 << 12) % 998244353
    assert ntt_cy.ntt(x, 998244353).ctypes.data % PAGE == PAGE_DATA
    for offset in (0, 64, 1024, 4032):
        a = aligned_empty(PAGE // 4, np.uint32, offset)
        assert a.ctypes.data % PAGE == offset and a.size == PAGE // 4
    assert aligned_empty(5, np.uint32, 1024).ctypes.data % ALIGN == 0   # below a page: ALIGN
    with pytest.raises(ValueError, match="multiple of 64"):
        aligned_empty(PAGE, np.uint8, 100)


def test_twiddle_tables_are_readable_past_their_end():
    # The AVX2 uint32 butterflies load each twiddle vector's odd-lane quotients one
    # element further on, so a stage table's last vector reads past the table.
    from ntt_cy._kernels import active as _ntt
    from ntt_cy._support.aligned import TABLE_TAIL_BYTES, readable_tail

    for shape, offset in ((5, 0), (4096, 1024), ((3, 700), 3072)):
        a = aligned_empty(shape, np.uint32, offset, tail=TABLE_TAIL_BYTES)
        assert readable_tail(a) >= TABLE_TAIL_BYTES
    assert readable_tail(np.zeros(8, np.uint32)) == 0          # owns its memory
    with pytest.raises(ValueError, match="tail must be >= 0"):
        aligned_empty(8, np.uint32, tail=-1)
    plan = get_plan(1 << 10, 998244353)
    for family in ("lazy", "montgomery", "barrett"):
        for table in plan.tables(family).arrays.values():
            assert readable_tail(table) >= TABLE_TAIL_BYTES
    arrays = dict(plan.tables("lazy").arrays)
    arrays["fwd_tw_q"] = arrays["fwd_tw_q"].copy()              # no tail
    with pytest.raises(ValueError, match="fwd_tw_q needs 64 readable bytes"):
        _ntt.TransformTables("lazy", plan._modulus, arrays, plan.n, 0, 0)


@pytest.mark.parametrize("dtype", [np.uint32, np.float64, np.dtype(">u4"), np.dtype([("x", "<u4")])])
def test_aligned_empty_owns_its_buffer_through_base(dtype):
    # builtin dtypes take the C-API view, others the slice-and-view route: both are
    # aligned views whose base is the byte buffer (what readable_tail reads)
    from ntt_cy._support.aligned import readable_tail
    a = aligned_empty((3, 40), dtype, tail=64)
    assert a.dtype == dtype and a.shape == (3, 40) and aligned(a)
    assert isinstance(a.base, np.ndarray) and a.base.base is None and a.base.dtype == np.uint8
    assert readable_tail(a) >= 64
    a[...] = np.zeros(1, dtype)   # writeable
    del a                         # the buffer lives as long as the view (no crash, no leak)


def test_aligned_empty_rejects_bad_shapes():
    with pytest.raises(TypeError):
        aligned_empty((1.5, 3), np.uint32)
    with pytest.raises(ValueError, match="negative"):
        aligned_empty((-1, 3), np.uint32)


def test_aligned_empty_rejects_sizes_past_the_address_space():
    # the buffer's size (array, alignment, page offset, tail) must not wrap in C
    with pytest.raises(ValueError, match="too large"):
        aligned_empty((100,), np.uint8, 0, tail=2**64 - 100)
    with pytest.raises(ValueError, match="multiple of 64"):
        aligned_empty((4,), np.uint8, page_offset=3)
