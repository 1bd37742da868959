"""Hypothesis profiles for the fuzz suite (tests/fuzz): "ci", the default (a bounded,
reproducible budget: every test run, .ci/run's included) and "long" (the release check,
over 10^5 calls in all, `pytest tests/fuzz --hypothesis-profile=long`; docs/guide.md,
Development).  Tests elsewhere set their own
max_examples and keep them under every profile.  The fixture scratch_requests records
the scratch buffers a module asks for."""
import pytest
from hypothesis import HealthCheck, settings

# Fuzz tests in tests/fuzz: 5 test functions (each example one call or a few).
settings.register_profile("ci", max_examples=600, derandomize=True, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20_000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
# The bounded, reproducible profile unless --hypothesis-profile names another (the
# plugin loads that one after this file).
settings.load_profile("ci")


@pytest.fixture
def scratch_requests(monkeypatch):
    """scratch_requests(module): a list that records every (slot, shape) the module
    asks ntt_cy._support.scratch for from then on (the real buffers still handed out)."""
    def spy(module):
        requests = []
        real = module.scratch

        def recorded(slot, shape, dtype):
            requests.append((slot, shape))
            return real(slot, shape, dtype)

        monkeypatch.setattr(module, "scratch", recorded)
        return requests
    return spy
