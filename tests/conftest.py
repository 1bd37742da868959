"""Hypothesis profiles for the fuzz suite (tests/fuzz): "ci", the default (a bounded,
reproducible budget: every test run, .ci/run's included) and "long" (the release check,
over 10^5 calls in all, `pytest tests/fuzz --hypothesis-profile=long`; docs/guide.md,
Development).  Tests elsewhere set their own
max_examples and keep them under every profile."""
from hypothesis import HealthCheck, settings

# Fuzz tests in tests/fuzz: 5 test functions (each example one call or a few).
settings.register_profile("ci", max_examples=600, derandomize=True, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20_000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
# The bounded, reproducible profile unless --hypothesis-profile names another (the
# plugin loads that one after this file).
settings.load_profile("ci")
