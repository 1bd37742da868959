"""Launch sequences of the CUDA path, independent of how they are executed.

Every GPU operation of ntt_cy.cuda is a list of `Launch` records (kernel name, grid, block,
dynamic shared bytes, argument record) built here from device addresses.  The PyCUDA
backend runs them on a GPU; the host harness (tests/cuda/host_harness.cpp) runs the very
same lists serially on the CPU, which is how tests check them without a GPU.

Transform passes (see transform_pass.cuh): the stages of a 2^log_n transform are split into
passes of at most 2^tile_log elements per block tile.  The last pass does the tile_log
smallest-stride stages on contiguous tiles; the big-stride stages before it are split
evenly into passes whose tiles keep >= 2^min_cols_log consecutive columns (coalesced global
accesses).  With the default geometry (32 KiB tiles) a transform of up to 2^13 (uint32) or
2^12 (uint64) elements is one launch, 2^22 (uint32) / 2^21 (uint64) two, 2^24 three.

Records are built once per shape (cached templates) and only their addresses are filled
in per call, which keeps the Python cost of a launch to a few microseconds.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .abi import CRT_ARGS, CRT_MAX_PRIMES, FLAG_INVERSE, FLAG_NEGACYCLIC, NTT_ARGS, new_record
from .modconst import LaneModulus, mod64_constants

__all__ = [
    "Geometry",
    "DEFAULT_GEOMETRY",
    "TransformSpec",
    "Launch",
    "stage_passes",
    "twiddle_launches",
    "forward_launches",
    "inverse_launches",
    "bitrev_launches",
    "CrtSpec",
    "crt_load_launch",
    "crt_garner_launch",
]


@dataclass(frozen=True)
class Geometry:
    """Launch shapes.  tile_log_*: log2 elements per block tile (default 32 KiB of shared
    memory); min_cols_log_*: log2 of the consecutive columns a big-stride pass keeps
    (default 64-byte runs); max_threads: threads per block (<= 512, the kernels' launch
    bound); elementwise kernels use per_block elements per block."""

    tile_log_u32: int = 13
    tile_log_u64: int = 12
    min_cols_log_u32: int = 4
    min_cols_log_u64: int = 3
    max_threads: int = 512
    elementwise_threads: int = 256
    elementwise_per_block: int = 2048

    def tile_log(self, word_bytes: int) -> int:
        return self.tile_log_u32 if word_bytes == 4 else self.tile_log_u64

    def min_cols_log(self, word_bytes: int) -> int:
        return self.min_cols_log_u32 if word_bytes == 4 else self.min_cols_log_u64


DEFAULT_GEOMETRY = Geometry()


@dataclass(frozen=True, eq=False)
class Launch:
    kernel: str
    grid: int
    block: int
    shared: int
    args: np.ndarray        # 1-element NTT_ARGS or CRT_ARGS record

    def at(self, **addresses) -> "Launch":
        """A copy with the given address fields (src, dst, ...) of the record set."""
        rec = self.args.copy()
        for name, value in addresses.items():
            rec[name] = value
        return Launch(self.kernel, self.grid, self.block, self.shared, rec)


@dataclass(frozen=True)
class TransformSpec:
    """Everything a transform's launches need besides addresses: n = 2^log_n, the lane
    modulus, the family, the kind and the roots (plain residues)."""

    log_n: int
    modulus: LaneModulus
    family: str
    negacyclic: bool
    root: int          # w (cyclic, order n) or psi (negacyclic, order 2n)
    root_inv: int
    n_inv: int

    @classmethod
    def create(cls, n: int, p: int, bits: int, family: str, kind: str, root: int) -> "TransformSpec":
        if family == "montgomery" and not p & 1:
            raise ValueError(f"the Montgomery family needs an odd modulus, got {p}")
        if family == "lazy" and 4 * p >= 1 << bits:
            raise ValueError(f"the lazy family needs 4p < 2**{bits}, got p = {p}")
        if family not in ("montgomery", "barrett", "lazy"):
            raise ValueError(f"unknown family {family!r}")
        return cls(
            log_n=n.bit_length() - 1,
            modulus=LaneModulus(p, bits),
            family=family,
            negacyclic=kind == "negacyclic",
            root=root % p,
            root_inv=pow(root, -1, p),
            n_inv=pow(n, -1, p),
        )

    @property
    def n(self) -> int:
        return 1 << self.log_n

    @property
    def word(self) -> str:
        return "u32" if self.modulus.bits == 32 else "u64"

    @property
    def word_bytes(self) -> int:
        return self.modulus.bits // 8

    def record(self, **fields) -> np.ndarray:
        return new_record(NTT_ARGS, n=self.n, log_n=self.log_n, **self.modulus.fields(), **fields)


def _threads(work: int, geom: Geometry) -> int:
    """Threads for `work` independent items: a multiple of 32 in [32, max_threads]."""
    return max(32, min(geom.max_threads, (work + 31) // 32 * 32))


@lru_cache(maxsize=1024)
def stage_passes(log_n: int, word_bytes: int, geom: Geometry = DEFAULT_GEOMETRY) -> tuple:
    """((stage0, stages), ...) covering stages 0 .. log_n - 1 in forward order."""
    tile_log = geom.tile_log(word_bytes)
    if log_n <= tile_log:
        return ((0, log_n),)
    big = log_n - tile_log
    per_pass = tile_log - geom.min_cols_log(word_bytes)
    count = -(-big // per_pass)
    sizes = [big // count + (i < big % count) for i in range(count)]
    passes, s0 = [], 0
    for k in sizes:
        passes.append((s0, k))
        s0 += k
    passes.append((s0, tile_log))
    return tuple(passes)


@lru_cache(maxsize=4096)
def _pass_template(spec: TransformSpec, inverse: bool, s0: int, k: int, rows: int,
                   geom: Geometry) -> Launch:
    """The launch of stages [s0, s0 + k) over `rows` rows, addresses left 0."""
    tile_log = geom.tile_log(spec.word_bytes)
    stride_log = spec.log_n - s0 - k
    cols_log = min(stride_log, tile_log - k)
    tile_elems_log = k + cols_log
    ntiles = rows << (s0 + stride_log - cols_log)
    per_block = min(1 << (tile_log - tile_elems_log), ntiles)
    grid = -(-ntiles // per_block)
    elems = per_block << tile_elems_log
    name = f"ntt_{'inv' if inverse else 'fwd'}_{spec.word}_{spec.family}"
    rec = spec.record(stage0=s0, log_rows=k, log_cols=cols_log, ntiles=ntiles, per_block=per_block)
    return Launch(name, grid, _threads(max(1, elems // 2), geom), elems * spec.word_bytes, rec)


def twiddle_launches(spec: TransformSpec, tw: int, twq: int, inverse: bool,
                     geom: Geometry = DEFAULT_GEOMETRY) -> list:
    """Fill the forward or inverse twiddle table (n entries; twq only for the lazy family)."""
    per_block = geom.elementwise_per_block
    flags = (FLAG_NEGACYCLIC if spec.negacyclic else 0) | (FLAG_INVERSE if inverse else 0)
    rec = spec.record(tw=tw, twq=twq, per_block=per_block, flags=flags,
                      root=spec.root_inv if inverse else spec.root, ninv=spec.n_inv)
    grid = -(-spec.n // per_block)
    return [Launch(f"ntt_twiddles_{spec.word}_{spec.family}", grid,
                   _threads(min(per_block, spec.n), geom), 0, rec)]


def forward_launches(spec: TransformSpec, src: int, dst: int, rows: int, tw: int, twq: int,
                     flag: int = 0, geom: Geometry = DEFAULT_GEOMETRY) -> list:
    """Forward transform of `rows` rows: natural order at src -> bit-reversed order at dst
    (src == dst allowed).  flag: address of a u32 set to 1 if an input is >= p."""
    launches = []
    for i, (s0, k) in enumerate(stage_passes(spec.log_n, spec.word_bytes, geom)):
        first = i == 0
        launches.append(_pass_template(spec, False, s0, k, rows, geom).at(
            src=src if first else dst, dst=dst, tw=tw, twq=twq, flag=flag if first else 0))
    return launches


def inverse_launches(spec: TransformSpec, src: int, dst: int, rows: int, tw: int, twq: int,
                     src2: int = 0, flag: int = 0, geom: Geometry = DEFAULT_GEOMETRY) -> list:
    """Normalised inverse of `rows` rows: bit-reversed order at src -> natural order at dst.
    src2: optional bit-reversed spectrum multiplied pointwise into src first (convolution)."""
    launches = []
    for i, (s0, k) in enumerate(reversed(stage_passes(spec.log_n, spec.word_bytes, geom))):
        first = i == 0
        launches.append(_pass_template(spec, True, s0, k, rows, geom).at(
            src=src if first else dst, src2=src2 if first else 0, dst=dst, tw=tw, twq=twq,
            flag=flag if first else 0))
    return launches


@lru_cache(maxsize=1024)
def _bitrev_template(word: str, log_n: int, rows: int, geom: Geometry) -> Launch:
    n = 1 << log_n
    if log_n >= 10:
        rec = new_record(NTT_ARGS, n=n, log_n=log_n)
        return Launch(f"ntt_bitrev_tiled_{word}", rows << (log_n - 10), geom.elementwise_threads,
                      32 * 33 * (4 if word == "u32" else 8), rec)
    count = rows * n
    per_block = geom.elementwise_per_block
    rec = new_record(NTT_ARGS, n=n, log_n=log_n, ntiles=count, per_block=per_block)
    return Launch(f"ntt_bitrev_naive_{word}", -(-count // per_block),
                  _threads(min(per_block, count), geom), 0, rec)


def bitrev_launches(word: str, log_n: int, rows: int, src: int, dst: int,
                    geom: Geometry = DEFAULT_GEOMETRY) -> list:
    """dst[r][j] = src[r][bitreverse(j)] (src and dst must not overlap)."""
    return [_bitrev_template(word, log_n, rows, geom).at(src=src, dst=dst)]


# ---------------------------------------------------------------------------------------
# Products over any modulus.
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrtSpec:
    """Output modulus m and the NTT primes used (k = 1 and primes == (m,) when m is itself
    a suitable NTT prime)."""

    m: int
    primes: tuple

    def table(self) -> dict:
        """The constant fields of a CrtArgs record."""
        return _crt_table(self)


@lru_cache(maxsize=256)
def _crt_table(crt: CrtSpec) -> dict:
    k = len(crt.primes)
    if not 1 <= k <= CRT_MAX_PRIMES:
        raise ValueError(f"between 1 and {CRT_MAX_PRIMES} CRT primes are supported, got {k}")
    pad = [0] * (CRT_MAX_PRIMES - k)
    consts = [mod64_constants(q) for q in crt.primes]
    m_norm, m_dinv = mod64_constants(crt.m)
    prefix, acc = [], 1
    for q in crt.primes:
        prefix.append(acc % crt.m)
        acc *= q
    inv = [0] * (CRT_MAX_PRIMES * CRT_MAX_PRIMES)
    for j, qj in enumerate(crt.primes):
        for i in range(j):
            inv[i * CRT_MAX_PRIMES + j] = pow(crt.primes[i] % qj, -1, qj)
    return {
        "k": k, "m": crt.m, "m_norm": m_norm, "m_dinv": m_dinv,
        "prime": list(crt.primes) + pad,
        "prime_norm": [c[0] for c in consts] + pad,
        "prime_dinv": [c[1] for c in consts] + pad,
        "prefix": prefix + pad,
        "inv": inv,
    }


def _elementwise(name: str, count: int, geom: Geometry, rec: np.ndarray) -> Launch:
    per_block = geom.elementwise_per_block
    rec["count"] = count
    rec["per_block"] = per_block
    return Launch(name, -(-count // per_block), _threads(min(per_block, count), geom), 0, rec)


@lru_cache(maxsize=1024)
def _crt_load_template(crt: CrtSpec, in_word: str, res_word: str, rows: int, len_in: int,
                       log_row_len: int, region: int, geom: Geometry) -> Launch:
    rec = new_record(CRT_ARGS, len_in=len_in, log_row_len=log_row_len, region=region, **crt.table())
    return _elementwise(f"crt_load_{in_word}_{res_word}", rows << log_row_len, geom, rec)


def crt_load_launch(crt: CrtSpec, in_word: str, res_word: str, src: int, dst: int, rows: int,
                    len_in: int, log_row_len: int, region: int,
                    geom: Geometry = DEFAULT_GEOMETRY) -> Launch:
    """Rows of length len_in (any values, taken modulo m) -> zero-padded residue rows of
    length 2^log_row_len modulo every prime, prime j at dst + j * region elements."""
    return _crt_load_template(crt, in_word, res_word, rows, len_in, log_row_len, region,
                              geom).at(src=src, dst=dst)


FOLDS = {"linear": 0, "cyclic": 1, "negacyclic": 2}


@lru_cache(maxsize=1024)
def _crt_garner_template(crt: CrtSpec, res_word: str, out_word: str, rows: int, log_row_len: int,
                         region: int, lin_len: int, out_len: int, kind: str, geom: Geometry) -> Launch:
    rec = new_record(CRT_ARGS, log_row_len=log_row_len, region=region, lin_len=lin_len,
                     out_len=out_len, fold=FOLDS[kind], **crt.table())
    return _elementwise(f"crt_garner_{res_word}_{out_word}", rows * out_len, geom, rec)


def crt_garner_launch(crt: CrtSpec, res_word: str, out_word: str, src: int, dst: int, rows: int,
                      log_row_len: int, region: int, lin_len: int, out_len: int, kind: str,
                      geom: Geometry = DEFAULT_GEOMETRY) -> Launch:
    """Residue rows (linear convolutions of valid length lin_len) -> output rows of length
    out_len modulo m, folded for the cyclic / negacyclic kinds."""
    return _crt_garner_template(crt, res_word, out_word, rows, log_row_len, region, lin_len,
                                out_len, kind, geom).at(src=src, dst=dst)
