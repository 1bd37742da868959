"""The version of ntt_cy, defined here once: pyproject.toml reads it for the package
metadata (`attr:`), `ntt_cy.__version__`, `ntt-cy --version` and show_config() from it."""
__version__ = "0.1.0"
