"""Type stub of the compiled ntt_cy/_support/aligned.pyx (64-byte aligned arrays)."""
from typing import Any

import numpy.typing as npt

ALIGN: int
PAGE: int
PAGE_DATA: int
PAGE_TWIDDLES: int
PAGE_QUOTIENTS: int
PAGE_ELEMENTWISE: int
TABLE_TAIL_BYTES: int
NPY_MAX_INTP: int

def aligned_empty(shape: Any, dtype: npt.DTypeLike, page_offset: int = ...,
                  tail: int = ...) -> npt.NDArray[Any]: ...
def aligned_copy(a: npt.NDArray[Any], page_offset: int = ..., tail: int = ...
                 ) -> npt.NDArray[Any]: ...
def readable_tail(a: npt.NDArray[Any]) -> int: ...
