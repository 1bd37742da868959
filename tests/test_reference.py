"""The API reference (docs/api.rst, built by `sphinx-build -W -b html docs build/html`)
documents every public name: those of ntt_cy, ntt_cy.primes, ntt_cy.dask and
ntt_cy.cuda (their __all__) and the four namespaces, each under its own module, and
names nothing that is not one."""
import importlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api.rst"
NAMESPACES = ["ntt_cy", "ntt_cy.primes", "ntt_cy.dask", "ntt_cy.cuda"]

DIRECTIVE = re.compile(r"^\.\. (\w+)::\s*([\w.]+)", re.M)
OBJECT_DIRECTIVES = {"autofunction", "autoclass", "autoexception", "function", "class",
                     "data"}


def documented(text: str) -> tuple:
    """(the qualified names the page documents, the modules it shows with automodule):
    a name counts under the last `currentmodule` before it."""
    names, modules, current = set(), set(), ""
    for directive, target in DIRECTIVE.findall(text):
        if directive == "currentmodule":
            current = target
        elif directive == "automodule":
            modules.add(target)
        elif directive in OBJECT_DIRECTIVES:
            names.add(f"{current}.{target}")
    return names, modules


def public_names() -> set:
    names = set()
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        names.update(f"{namespace}.{name}" for name in module.__all__)
    return names


NAMES, MODULES = documented(API.read_text())


@pytest.mark.parametrize("name", sorted(public_names()))
def test_every_public_name_is_in_the_reference(name):
    module = importlib.import_module(name.rsplit(".", 1)[0])
    if isinstance(getattr(module, name.rsplit(".", 1)[1]), type(module)):
        assert name in MODULES, f"docs/api.rst has no automodule for {name}"
    else:
        assert name in NAMES, f"docs/api.rst does not document {name}"


def test_the_reference_names_only_public_names():
    aliases = {name for name in NAMES if name.startswith("ntt_cy._typing.")}
    import ntt_cy._typing

    assert aliases == {f"ntt_cy._typing.{name}" for name in ntt_cy._typing.__all__}
    assert NAMES - aliases <= public_names()
    assert MODULES <= set(NAMESPACES)


def test_the_page_reader_follows_currentmodule():
    text = (".. currentmodule:: a\n\n.. autofunction:: f\n\n.. automodule:: b\n"
            ".. currentmodule:: b\n\n.. autoclass:: C\n   :members: m\n\n.. data:: x\n")
    assert documented(text) == ({"a.f", "b.C", "b.x"}, {"b"})
