"""ntt_cy: exact number-theoretic transforms and modular polynomial arithmetic."""
import os as _os

__version__ = "0.1.0"

# Must run before the first OpenMP-linked extension loads (libgomp reads it once).
# Threads that spin at barriers collapse 50-100x when another process keeps the
# cores busy (measured, README "Threads"); passive waiting never does.  A user's own
# OMP_WAIT_POLICY / GOMP_SPINCOUNT always wins.
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["OMP_WAIT_POLICY"] = "PASSIVE"

from ntt_cy._config import show_config  # noqa: E402
from ntt_cy.bigint import bigmul  # noqa: E402
from ntt_cy.plan import NTTPlan  # noqa: E402
from ntt_cy.poly import convolve, polymul  # noqa: E402
from ntt_cy.transforms import intt, ntt  # noqa: E402

__all__ = ["ntt", "intt", "NTTPlan", "polymul", "convolve", "bigmul", "show_config", "__version__"]
