"""The type aliases of ntt_cy's public signatures (numpy.typing based).

The string options are Literal types, so a type checker catches a misspelt ``kind=`` or
``reduction=``; integer arguments take Python ints and numpy integers alike, as the
functions do at run time (bools are refused there).
"""
from __future__ import annotations

from typing import Any, Literal, Union

import numpy as np
import numpy.typing as npt

__all__ = ["Integer", "Kind", "PolyKind", "Reduction", "Backend", "Order", "RechunkMethod",
           "IntegerArray"]

#: A Python int or a numpy integer.
Integer = Union[int, np.integer[Any]]

#: The transform kinds: cyclic (mod x^n - 1) or negacyclic (mod x^n + 1).
Kind = Literal["cyclic", "negacyclic"]

#: The product kinds of polymul: linear, or wrapped modulo x^n - 1 / x^n + 1.
PolyKind = Literal["linear", "cyclic", "negacyclic"]

#: The butterfly families ("auto": the fastest valid one for the kernel build in use).
Reduction = Literal["auto", "montgomery", "barrett", "lazy", "goldilocks"]

#: Where a call runs.
Backend = Literal["cpu", "cuda"]

#: The output order of ntt_cy.dask.ntt_large (the input order of intt_large).
Order = Literal["natural", "transposed"]

#: dask's rechunk methods for the all-to-alls of ntt_cy.dask (None: dask's default).
RechunkMethod = Literal["tasks", "p2p"]

#: An ndarray of an integer dtype: what ``out=`` takes, and what the transforms return
#: (uint32 or uint64 unless ``out=`` gives another).
IntegerArray = npt.NDArray[np.integer[Any]]
