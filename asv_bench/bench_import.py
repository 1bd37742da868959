"""Import time, measured in a fresh interpreter per sample (timeraw_).

The child interpreter is pointed at the same ntt_cy the benchmark process imports
(asv's ``--python=same`` may have put it on sys.path itself, which children do not
inherit); that sys.path edit happens in the untimed setup.
"""
import importlib.util
import os


def _path_setup():
    spec = importlib.util.find_spec("ntt_cy")
    if spec is None or spec.origin is None:
        raise NotImplementedError("ntt_cy is not importable")
    root = os.path.dirname(os.path.dirname(spec.origin))
    return f"import sys; sys.path.insert(0, {root!r})"


def timeraw_import_ntt_cy():
    """``import ntt_cy`` alone (numpy already imported in the untimed setup)."""
    return "import ntt_cy", _path_setup() + "; import numpy"


def timeraw_import_and_first_ntt():
    """Cold start: import numpy and ntt_cy, then one length-1024 transform (plan + tables)."""
    stmt = """
import numpy as np
import ntt_cy
ntt_cy.ntt(np.arange(1024, dtype=np.uint32), 998244353, workers=1)
"""
    return stmt, _path_setup()
