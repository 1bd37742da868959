"""Type stub of the compiled ntt_cy/_support/int_lists.pyx."""
from typing import Any

import numpy as np
import numpy.typing as npt

def int64_from_ints(seq: list[Any] | tuple[Any, ...]) -> npt.NDArray[np.int64] | None: ...
