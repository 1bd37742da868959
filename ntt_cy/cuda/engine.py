"""Transforms and products on device addresses, through an abstract backend.

A backend executes `schedule.Launch` records and moves memory, in order on one stream:

    alloc(nbytes) -> buffer with .ptr          launch(launch)
    upload(ndarray) -> buffer                  download(ptr, ndarray)     (synchronising)
    memset_u32(ptr, value, count)              read_u32(ptr) -> int       (synchronising)
    copy(dst, src, nbytes)                     wait_for_stream(cai_stream)

`ntt_cy.cuda._driver.PyCudaBackend` is the GPU one; tests/test_cuda_host.py has a host one
that runs the launches with the C++ harness.  Engines own per-plan device state (twiddle
tables) for one backend; all work is queued in order on the backend's stream.
"""
from __future__ import annotations

from typing import Any

from .schedule import (
    DEFAULT_GEOMETRY,
    CrtSpec,
    Geometry,
    TransformSpec,
    bitrev_launches,
    crt_garner_launch,
    crt_load_launch,
    forward_launches,
    inverse_launches,
    twiddle_launches,
)

__all__ = ["TransformEngine", "PolymulEngine", "RangeFlag"]


class RangeFlag:
    """A device u32 that kernels set to 1 when they load an input value >= the modulus."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend
        self.buffer = backend.alloc(4)
        self.ptr = self.buffer.ptr
        backend.memset_u32(self.ptr, 0, 1)

    def raised(self) -> bool:
        """Waits for the queued work and reports whether any input was out of range."""
        return self.backend.read_u32(self.ptr) != 0


class TransformEngine:
    """Twiddle tables of one TransformSpec on one backend, and the transform launches."""

    def __init__(self, spec: TransformSpec, backend, geom: Geometry = DEFAULT_GEOMETRY):
        self.spec = spec
        self.backend = backend
        self.geom = geom
        self._buffers = []
        self.tw_fwd = self.twq_fwd = self.tw_inv = self.twq_inv = 0
        if spec.n > 1:
            self.tw_fwd, self.twq_fwd = self._table(inverse=False)
            self.tw_inv, self.twq_inv = self._table(inverse=True)

    def _alloc(self, nbytes: int) -> int:
        buf = self.backend.alloc(nbytes)
        self._buffers.append(buf)
        return buf.ptr

    def _table(self, inverse: bool) -> tuple:
        nbytes = self.spec.n * self.spec.word_bytes
        tw = self._alloc(nbytes)
        twq = self._alloc(nbytes) if self.spec.family == "lazy" else 0
        self._run(twiddle_launches(self.spec, tw, twq, inverse, self.geom))
        return tw, twq

    def _run(self, launches) -> None:
        for launch in launches:
            self.backend.launch(launch)

    def forward(self, src: int, dst: int, rows: int, *, bit_reversed: bool = False, flag: int = 0) -> None:
        """Forward transforms of `rows` contiguous rows, natural order in; bit-reversed or
        natural order out.  src == dst is allowed."""
        spec = self.spec
        if bit_reversed or spec.n == 1:
            self._run(forward_launches(spec, src, dst, rows, self.tw_fwd, self.twq_fwd, flag, self.geom))
            return
        tmp = self.backend.alloc(rows * spec.n * spec.word_bytes)
        self._run(forward_launches(spec, src, tmp.ptr, rows, self.tw_fwd, self.twq_fwd, flag, self.geom))
        self._run(bitrev_launches(spec.word, spec.log_n, rows, tmp.ptr, dst, self.geom))

    def inverse(self, src: int, dst: int, rows: int, *, bit_reversed: bool = False, flag: int = 0,
                src2: int = 0) -> None:
        """Normalised inverse transforms; input bit-reversed or natural order, output natural
        order.  src2 (bit-reversed order only) is multiplied pointwise into src first."""
        spec = self.spec
        if bit_reversed or spec.n == 1:
            self._run(inverse_launches(spec, src, dst, rows, self.tw_inv, self.twq_inv, src2, flag,
                                       self.geom))
            return
        if src2:
            raise ValueError("a pointwise factor needs bit-reversed input")
        tmp = self.backend.alloc(rows * spec.n * spec.word_bytes)
        self._run(bitrev_launches(spec.word, spec.log_n, rows, src, tmp.ptr, self.geom))
        self._run(inverse_launches(spec, tmp.ptr, dst, rows, self.tw_inv, self.twq_inv, 0, flag,
                                   self.geom))


class PolymulEngine:
    """Linear convolutions of length-N zero-padded rows modulo each prime of a CrtSpec,
    reconstructed modulo m (with the cyclic / negacyclic fold) on the device."""

    def __init__(self, crt: CrtSpec, log_n: int, bits: int, families: tuple, roots: tuple, backend,
                 geom: Geometry = DEFAULT_GEOMETRY):
        self.crt = crt
        self.log_n = log_n
        self.bits = bits
        self.backend = backend
        self.geom = geom
        n = 1 << log_n
        self.engines = [
            TransformEngine(TransformSpec.create(n, q, bits, fam, "cyclic", root), backend, geom)
            for q, fam, root in zip(crt.primes, families, roots)
        ]

    @property
    def res_word(self) -> str:
        return "u32" if self.bits == 32 else "u64"

    def run(self, a: int, a_word: str, len_a: int, b: int, b_word: str, len_b: int, rows: int,
            out: int, out_word: str, out_len: int, kind: str) -> None:
        """out[r] = a[r] * b[r] (kind: linear, cyclic mod x^out_len - 1, negacyclic mod
        x^out_len + 1) modulo m for `rows` rows of contiguous inputs (any values: the load
        reduces them modulo m)."""
        n = 1 << self.log_n
        wb = self.bits // 8
        half = rows * n                    # residues of a, then of b, for each prime
        region = 2 * half
        res = self.backend.alloc(len(self.engines) * region * wb)
        g = self.geom
        self.backend.launch(crt_load_launch(self.crt, a_word, self.res_word, a, res.ptr, rows, len_a,
                                            self.log_n, region, g))
        self.backend.launch(crt_load_launch(self.crt, b_word, self.res_word, b, res.ptr + half * wb,
                                            rows, len_b, self.log_n, region, g))
        for j, eng in enumerate(self.engines):
            base = res.ptr + j * region * wb
            eng.forward(base, base, 2 * rows, bit_reversed=True)
            eng.inverse(base, base, rows, bit_reversed=True, src2=base + half * wb)
        self.backend.launch(crt_garner_launch(self.crt, self.res_word, out_word, res.ptr, out, rows,
                                              self.log_n, region, len_a + len_b - 1, out_len, kind, g))
