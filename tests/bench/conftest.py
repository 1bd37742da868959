"""Fixtures of the ntt_cy.bench tests."""
import pytest

from ntt_cy.bench import libraries


@pytest.fixture
def libs(monkeypatch):
    """Replace the competitor list (ntt_cy first) for one test."""
    def use(*extra):
        monkeypatch.setattr(libraries, "LIBRARIES", [libraries.NttCy(), *extra])
    return use
