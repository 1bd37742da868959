"""The Examples sections of the public docstrings run as written (doctest), and every
public name, class method and namespace has one: the names of ntt_cy, ntt_cy.primes,
ntt_cy.dask and ntt_cy.cuda (their __all__), the public methods of their classes, and
the four namespaces' own docstrings."""
import doctest
import importlib
import inspect
import re
import types

import pytest

# Every module that defines a public name, or is a namespace users import: their
# docstrings (module, classes, functions, methods) run as doctests.
MODULES = [
    "ntt_cy", "ntt_cy.transforms", "ntt_cy.plan", "ntt_cy.poly", "ntt_cy.bigint",
    "ntt_cy.modular", "ntt_cy.primes", "ntt_cy._support.config", "ntt_cy._support.threads",
    "ntt_cy._support.memory", "ntt_cy.dask", "ntt_cy.dask.transforms",
    "ntt_cy.dask.four_step", "ntt_cy.dask.products", "ntt_cy.cuda", "ntt_cy.cuda._driver",
    "ntt_cy.cuda.plan", "ntt_cy.cuda.poly",
]
NAMESPACES = ["ntt_cy", "ntt_cy.primes", "ntt_cy.dask", "ntt_cy.cuda"]

# Methods without a leading underscore that the library's own modules call (the
# single-row products, the CRT bases): not part of the reference, no examples.
INTERNAL_METHODS = {"ntt_cy.NTTPlan.tables", "ntt_cy.NTTPlan.table_bytes"}

EXAMPLES = re.compile(r"^Examples\n-{8,}\n", re.M)


def public_objects() -> list:
    """(name, object) of the namespaces, their public names (modules and __version__
    aside: a namespace of its own, a string) and their classes' public methods."""
    found = []
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        found.append((namespace, module))
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, (types.ModuleType, str)):
                continue
            found.append((f"{namespace}.{name}", obj))
            if inspect.isclass(obj):
                found += [(f"{namespace}.{name}.{attr}", member)
                          for attr, member in vars(obj).items()
                          if not attr.startswith("_") and callable(member)
                          and f"{namespace}.{name}.{attr}" not in INTERNAL_METHODS]
    return found


@pytest.mark.parametrize("name", MODULES)
def test_examples_run_as_written(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result


PUBLIC = public_objects()
PUBLIC_IDS = [name for name, _ in PUBLIC]


@pytest.mark.parametrize("name, obj", PUBLIC, ids=PUBLIC_IDS)
def test_every_public_docstring_has_examples(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert EXAMPLES.search(doc), f"{name} has no Examples section"


@pytest.mark.parametrize("name, obj", PUBLIC, ids=PUBLIC_IDS)
def test_every_public_docstring_runs_here(name, obj):
    module = obj.__name__ if inspect.ismodule(obj) else obj.__module__
    assert module in MODULES, f"{name} is defined in {module}, whose doctests do not run"


def test_the_internal_methods_are_methods():
    import ntt_cy

    for name in INTERNAL_METHODS:
        assert callable(getattr(ntt_cy.NTTPlan, name.rsplit(".", 1)[1])), name


def test_a_missing_example_is_found():
    def documented():
        """Summary.

        Examples
        --------
        >>> 1
        1
        """

    def undocumented():
        """Summary; no examples."""

    assert EXAMPLES.search(inspect.getdoc(documented))
    assert not EXAMPLES.search(inspect.getdoc(undocumented))
