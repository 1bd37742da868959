"""Stand-ins for the tests of ntt_cy.bench: competitors whose answers, failures and call
order the tests choose, and rows of results with chosen times."""
import time

import numpy as np

import ntt_cy
from ntt_cy.bench.cases import P30, Case
from ntt_cy.bench.libraries import Library
from ntt_cy.bench.runner import Row
from ntt_cy.bench.timing import Timing


def timed_row(library, times, multithreaded=False, mismatch=None, case=None):
    """A Row of `library` on `case` (default: ntt n = 16) with medians {threads: s}."""
    row = Row(case or Case("ntt", 16, P30), library, "1", "ok",
              multithreaded=multithreaded, mismatch=mismatch)
    row.times = {t: Timing(s, [s], 1) for t, s in times.items()}
    return row


class Echo(Library):
    """A competitor that answers with ntt_cy's own result, optionally corrupted."""
    name, module, ops = "echo", "numpy", ("ntt",)

    def __init__(self, corrupt=False, name="echo"):
        self.corrupt = corrupt
        self.name = name

    def version(self):
        return "9.9"

    def prepare(self, case, inputs, threads):
        (a,) = inputs
        good = np.asarray(ntt_cy.ntt(a, case.modulus, workers=1))

        def fn():
            out = good.copy()
            if self.corrupt:
                out.flat[3] = (int(out.flat[3]) + 1) % case.modulus
            return out
        return fn


class Missing(Library):
    name, module, ops = "not-a-lib", "ntt_cy_no_such_module_for_tests", ("ntt", "polymul", "bigmul")


class Broken(Echo):
    def prepare(self, case, inputs, threads):
        def fn():
            raise RuntimeError("competitor exploded")
        return fn


class Recorder(Echo):
    """Echo that logs which library made each timed call."""
    log: list = []

    def prepare(self, case, inputs, threads):
        inner = super().prepare(case, inputs, threads)

        def fn():
            Recorder.log.append(self.name)
            return inner()
        return fn


class ColdStart(Echo):
    """Echo whose first call takes `cold_s` seconds (a one-time set-up, as sympy's first
    product modulo a large prime), the calls after it microseconds."""

    def __init__(self, cold_s, name="cold"):
        super().__init__(name=name)
        self.cold_s = cold_s

    def prepare(self, case, inputs, threads):
        inner = super().prepare(case, inputs, threads)
        calls = []

        def fn():
            if not calls:
                time.sleep(self.cold_s)
            calls.append(1)
            return inner()
        return fn
