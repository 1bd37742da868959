"""Sphinx configuration of ntt_cy's documentation: the API reference (autodoc of the
numpydoc docstrings) and the Markdown pages (guide, design, performance, dask) through
myst-parser.  Build, with ntt_cy installed (``pip install -e ".[docs]"``):
``sphinx-build -W -b html docs build/html`` (no network needed)."""
from ntt_cy import __version__

project = "ntt_cy"
author = "ntt_cy developers"
copyright = "ntt_cy developers, MIT license"
release = version = __version__

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "examples"]

# Markdown: GitHub's heading anchors, so the pages' links to #sections resolve here too.
myst_heading_anchors = 4

# API reference: the signatures without annotations (numpy's aliases spelled out are
# unreadable there); the parameter types are the docstrings' (numpydoc), and the
# annotations are for type checkers (py.typed).
autodoc_typehints = "none"
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
# Every check but those of layout and wording style: where the docstring starts and
# ends (GL01, GL02), an extended summary (ES01), a summary on one line starting with a
# verb (SS05, SS06).  A failed check is a warning, so an error under -W.
numpydoc_validation_checks = {"all", "GL01", "GL02", "ES01", "SS05", "SS06"}

html_theme = "alabaster"
html_title = f"ntt_cy {release}"
