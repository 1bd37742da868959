"""README.md's code runs as written: the "API in ten lines" block, executed as it stands,
with its comments' claims checked."""
import contextlib
import io
import pathlib
import re

import numpy as np

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def api_block() -> str:
    text = README.read_text()
    section = text[text.index("## API in ten lines"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no python block under 'API in ten lines'"
    return match.group(1)


def test_api_block_runs_as_written():
    names: dict = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(api_block(), str(README), "exec"), names)
    p, a, b = names["p"], names["a"], names["b"]
    assert np.array_equal(names["x"], np.arange(8))                       # "x == arange(8)"
    want = np.convolve(a.astype(object), b.astype(object)) % (10**9 + 7)
    assert np.array_equal(names["c"].astype(object), want)
    assert names["X"].shape == (1024,) and names["B"].shape == (8, 128)
    assert names["B"].dtype == np.uint32 and int(names["B"].max()) < p
    assert "kernel_isa" in printed.getvalue()                             # show_config()
