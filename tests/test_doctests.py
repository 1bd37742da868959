"""The Examples sections of the public docstrings run as written (doctest)."""
import doctest
import importlib

import pytest

import ntt_cy

MODULES = ["ntt_cy.transforms", "ntt_cy.plan", "ntt_cy.poly", "ntt_cy.modular",
           "ntt_cy.primes", "ntt_cy._support.threads", "ntt_cy._support.memory"]


@pytest.mark.parametrize("name", MODULES)
def test_examples_run_as_written(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result


def test_every_public_function_has_examples():
    for name in ("ntt", "intt", "NTTPlan", "polymul", "mul_mod", "get_workers", "set_workers",
                 "get_memory_limit", "set_memory_limit"):
        assert "Examples" in getattr(ntt_cy, name).__doc__, name
    for name in ntt_cy.primes.__all__:
        assert "Examples" in getattr(ntt_cy.primes, name).__doc__, name
