"""README.md and docs/*.md say what the software is and does: README's quick start is the
two commands .ci/run relies on, its API block runs as written, every repository path and
in-repository link the documents name exists, and README stays short and free of
development history."""
import contextlib
import io
import itertools
import pathlib
import re

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README] + sorted((ROOT / "docs").glob("*.md"))

QUICK_START = [
    "python -m pip install . && ntt-cy demo",
    'python -m pip install -e ".[test]" && python -m pytest -q -n auto',
]
README_MAX_LINES = 200

# Where repository paths start: a top-level folder or file of the repository.
PATH_ROOTS = r"(?:ntt_cy|tests|asv_bench|docs|tools)/[\w.*{},/-]*|\.ci/run|setup\.py|pyproject\.toml"
# A path starts a token: not in the middle of a word, a flag (-Intt_cy/...) or another path.
PATH_TOKEN = re.compile(r"(?<![\w/.\-])(" + PATH_ROOTS + r")")
CODE_SPAN = re.compile(r"```.*?```|`[^`\n]+`", re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def section(text: str, heading: str) -> str:
    """The text under `heading` up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(heading + "\n") + len(heading) + 1
    following = re.search(r"^#{1,%d} " % level, text[start:], re.M)
    return text[start:start + following.start()] if following else text[start:]


def code_blocks(text: str, heading: str, language: str) -> list:
    """The code blocks of `language` under `heading`, in order."""
    return re.findall(r"```%s\n(.*?)```" % language, section(text, heading), re.S)


def code_block(text: str, heading: str, language: str) -> str:
    blocks = code_blocks(text, heading, language)
    assert blocks, f"no {language} block under {heading!r}"
    return blocks[0]


# ---------------------------------------------------------------- the quick start

def quick_start_commands() -> list:
    block = code_block(README.read_text(), "## Quick start", "bash")
    lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
    return [line for line in lines if line]


def test_quick_start_is_exactly_the_two_commands():
    assert quick_start_commands() == QUICK_START


def test_ci_runs_the_quick_start_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert QUICK_START[1] in [line.strip() for line in ci]


# ---------------------------------------------------------------- the API block

def test_api_block_runs_as_written():
    names: dict = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code_block(README.read_text(), "## API in ten lines", "python"),
                     str(README), "exec"), names)
    p, a, b = names["p"], names["a"], names["b"]
    assert np.array_equal(names["x"], np.arange(8))                       # "x == arange(8)"
    want = np.convolve(a.astype(object), b.astype(object)) % (10**9 + 7)
    assert np.array_equal(names["c"].astype(object), want)
    assert names["X"].shape == (1024,) and names["B"].shape == (8, 128)
    assert names["B"].dtype == np.uint32 and int(names["B"].max()) < p
    assert "kernel_isa" in printed.getvalue()                             # show_config()


# ---------------------------------------------------------------- paths and links

def expand_braces(path: str) -> list:
    """'a/{b,c}/d' -> ['a/b/d', 'a/c/d'] (every brace group, in order)."""
    parts = re.split(r"\{([^{}]*)\}", path)
    choices = [[part] if i % 2 == 0 else part.split(",") for i, part in enumerate(parts)]
    return ["".join(combo) for combo in itertools.product(*choices)]


def named_paths(text: str) -> set:
    """Repository paths named inside code spans and code blocks, relative to the root."""
    found = set()
    for span in CODE_SPAN.findall(text):
        for token in PATH_TOKEN.findall(span):
            found.update(p.rstrip(".,:;") for p in expand_braces(token))
    return found


def path_exists(path: str) -> bool:
    if any(c in path for c in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(document: pathlib.Path) -> set:
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.S)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def relative_links(document: pathlib.Path) -> list:
    """(target file, anchor or None) of every link that is not a URL."""
    out = []
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        out.append((resolved, anchor or None))
    return out


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_named_path_exists(document):
    missing = sorted(p for p in named_paths(document.read_text()) if not path_exists(p))
    assert not missing, f"{document.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_link_reaches_its_file_and_heading(document):
    broken = []
    for target, anchor in relative_links(document):
        if not target.exists():
            broken.append(str(target.relative_to(ROOT)))
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            broken.append(f"{target.relative_to(ROOT)}#{anchor}")
    assert not broken, f"{document.name} links to what does not exist: {broken}"


def test_the_path_finder_sees_what_it_should():
    text = ("`ntt_cy/plan.py`, ```\npython asv_bench/scripts/x.py --p 5\n``` "
            "`ntt_cy/_kernels/simd/{ntt32,ntt64}/avx2.h`; `-Intt_cy/_kernels`, "
            "`.ci/run`, not ntt_cy/poly.py outside code, `/tmp/tests/a`")
    assert named_paths(text) == {"ntt_cy/plan.py", "asv_bench/scripts/x.py",
                                 "ntt_cy/_kernels/simd/ntt32/avx2.h",
                                 "ntt_cy/_kernels/simd/ntt64/avx2.h", ".ci/run"}
    assert slug("Threads, forked processes and `GOMP_SPINCOUNT`") == \
        "threads-forked-processes-and-gomp_spincount"


# ---------------------------------------------------------------- README's shape

HISTORY = re.compile(
    r"\bsessions?\b|\bjournal\b|speed-journal"
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b",   # commit hashes
    re.I)


def test_readme_is_short():
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_documents_carry_no_development_history(document):
    found = sorted({m.group(0) for m in HISTORY.finditer(document.read_text())})
    assert not found, f"{document.name} speaks of its development: {found}"


def test_the_history_pattern_finds_hashes_not_numbers():
    assert HISTORY.search("at f626736 the same") and HISTORY.search("the journal")
    assert not HISTORY.search("mod 998244353 and 1337006139375617, a decade of facades")


# ---------------------------------------------------------------- the guide's examples

GUIDE = ROOT / "docs" / "guide.md"


def test_guide_bit_reversed_example_multiplies_negacyclically():
    import ntt_cy

    p = 998244353
    a = np.array([1, 2, 3, 4, 0, 0, 0, 0], dtype=np.uint32)
    b = np.array([5, 6, 7, 0, 0, 0, 0, 0], dtype=np.uint32)
    names = {"np": np, "ntt_cy": ntt_cy, "p": p, "a": a, "b": b}
    exec(compile(code_block(GUIDE.read_text(), "### Order", "python"), str(GUIDE), "exec"),
         names)
    assert np.array_equal(names["c"], ntt_cy.polymul(a, b, p, kind="negacyclic"))


@pytest.mark.parametrize("n", [16384, 1000])
def test_guide_aligned_out_recipe_gives_an_aligned_out_of_n_values(n):
    import ntt_cy

    for _ in range(4):   # (a few allocations: numpy's addresses vary)
        names = {"np": np, "n": n}
        exec(compile(code_block(GUIDE.read_text(), "### Large results and huge pages",
                                "python"), str(GUIDE), "exec"), names)
        out = names["out"]
        assert out.ctypes.data % 64 == 0 and out.shape == (n,) and out.dtype == np.uint32
        a = np.arange(n, dtype=np.uint32)
        if n == 16384:
            assert ntt_cy.ntt(a, 998244353, out=out) is out
            assert np.array_equal(out, ntt_cy.ntt(a, 998244353))


def test_guide_polymul_examples_print_what_they_say():
    import ntt_cy

    block = "".join(code_blocks(GUIDE.read_text(),
                                "## Polynomial multiplication: polymul and convolve", "python"))
    examples = [line.split("#", 1) for line in block.splitlines() if "# array(" in line]
    assert len(examples) == 2
    for expression, shown in examples:
        result = eval(expression, {"ntt_cy": ntt_cy, "np": np})
        assert repr(result) == shown.strip(), expression


def test_guide_command_line_example(monkeypatch, capsys):
    from ntt_cy import cli

    text = section(GUIDE.read_text(), "## Command line")
    command, output = re.search(r"\$ printf '(.*?)' \| ntt-cy polymul -\n(.*)\n", text).groups()
    monkeypatch.setattr("sys.stdin", io.StringIO(command.replace("\\n", "\n")))
    assert cli.main(["polymul", "-"]) == 0
    assert capsys.readouterr().out == output + "\n"
