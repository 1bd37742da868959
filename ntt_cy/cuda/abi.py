"""Argument records and kernel names shared with the CUDA sources (args.cuh, kernels.cuh).

Every kernel takes one record by value.  All fields are 64-bit, in the order of the C
structs, so the numpy dtypes below have the C layout (tests/test_cuda_host.py checks the
offsets against the compiled headers).
"""
from __future__ import annotations

import numpy as np

__all__ = [
    "NTT_ARGS",
    "CRT_ARGS",
    "CRT_MAX_PRIMES",
    "FLAG_NEGACYCLIC",
    "FLAG_INVERSE",
    "FAMILIES",
    "word_name",
    "kernel_names",
    "new_record",
]

FLAG_NEGACYCLIC = 1
FLAG_INVERSE = 2
CRT_MAX_PRIMES = 8

FAMILIES = ("montgomery", "barrett", "lazy")

_NTT_FIELDS = (
    "src", "src2", "dst", "tw", "twq", "flag", "p", "pinv", "mu", "norm", "r_mod_p", "n",
    "log_n", "stage0", "log_rows", "log_cols", "ntiles", "per_block", "flags", "root", "ninv",
)
NTT_ARGS = np.dtype([(name, "<u8") for name in _NTT_FIELDS])

_CRT_SCALARS = (
    "src", "dst", "count", "per_block", "len_in", "log_row_len", "region", "lin_len",
    "out_len", "fold", "k", "m", "m_norm", "m_dinv",
)
CRT_ARGS = np.dtype(
    [(name, "<u8") for name in _CRT_SCALARS]
    + [(name, "<u8", (CRT_MAX_PRIMES,)) for name in ("prime", "prime_norm", "prime_dinv", "prefix")]
    + [("inv", "<u8", (CRT_MAX_PRIMES * CRT_MAX_PRIMES,))]
)


def word_name(dtype) -> str:
    """'u32' or 'u64' for a lane dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.uint32:
        return "u32"
    if dtype == np.uint64:
        return "u64"
    raise ValueError(f"lane dtype must be uint32 or uint64, got {dtype}")


def kernel_names() -> list:
    """Every extern "C" kernel in ntt.cu (the NTT_CY_KERNELS list of kernels.cuh)."""
    names = []
    for w in ("u32", "u64"):
        for fam in FAMILIES:
            names += [f"ntt_fwd_{w}_{fam}", f"ntt_inv_{w}_{fam}"]
        names += [f"ntt_twiddles_{w}_{fam}" for fam in FAMILIES]
        names += [f"ntt_bitrev_tiled_{w}", f"ntt_bitrev_naive_{w}"]
    names += [f"crt_load_{a}_{b}" for a in ("u32", "u64") for b in ("u32", "u64")]
    names += ["crt_garner_u32_u32", "crt_garner_u32_u64", "crt_garner_u64_u64"]
    return names


def new_record(dtype: np.dtype, **fields) -> np.ndarray:
    """A zeroed 1-element record array of ``dtype`` with ``fields`` set."""
    rec = np.zeros(1, dtype=dtype)
    for name, value in fields.items():
        rec[name] = value
    return rec
