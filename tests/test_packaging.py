"""How ntt_cy is built and packaged, checked without building: the version is defined once
and reaches the package, the metadata and `ntt-cy --version`; setup.py compiles the
emulated AVX-512 build only when NTT_CY_BUILD_EMULATED=1 and the ISA builds only on x86-64;
MANIFEST.in puts every source a build needs into the sdist and no generated file; release
builds are stripped."""
import ast
import glob
import importlib.util
import os
import pathlib
import subprocess
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:                             # the test extra installs tomli on Python 3.10
    import tomli as tomllib

import ntt_cy
from kernel_shims import load_setup

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE_SOURCE = ROOT / "ntt_cy"
EMULATED_PYX = "ntt_cy/_kernels/build_avx512_emulated.pyx"
ISA_PYX = {"ntt_cy/_kernels/build_avx2.pyx", "ntt_cy/_kernels/build_avx512.pyx",
           "ntt_cy/_kernels/build_avx512_noifma.pyx", EMULATED_PYX}


def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


# ---------------------------------------------------------------- the version

def version_in_source() -> str:
    tree = ast.parse((PACKAGE_SOURCE / "_version.py").read_text())
    (value,) = [node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__version__"]]
    return value


def test_version_is_defined_once_and_read_by_the_metadata():
    project = pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == \
        {"attr": "ntt_cy._version.__version__"}
    assert ntt_cy.__version__ == version_in_source()
    assigning = []
    for path in PACKAGE_SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and any(
                    isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets):
                assigning.append(path.relative_to(ROOT).as_posix())
    assert assigning == ["ntt_cy/_version.py"]


def test_command_line_prints_the_version():
    out = subprocess.run([sys.executable, "-m", "ntt_cy", "--version"], capture_output=True,
                         text=True, timeout=120, check=True)
    assert out.stdout.strip() == f"ntt-cy {version_in_source()}"


# ---------------------------------------------------------------- the metadata

def test_metadata_is_complete():
    project = pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert project["authors"] == [{"name": "ntt_cy developers"}]
    assert project["readme"] == "README.md" and project["requires-python"] == ">=3.10"
    assert project["keywords"] and set(project["urls"]) >= {"Documentation", "Source"}
    minors = {c.rsplit(".", 1)[1] for c in project["classifiers"]
              if c.startswith("Programming Language :: Python :: 3.")}
    assert minors >= {"10", "11", "12", "13"}
    assert project["scripts"] == {"ntt-cy": "ntt_cy.cli:main"}


# ---------------------------------------------------------------- what setup.py compiles

def every_pyx() -> set:
    return {p.relative_to(ROOT).as_posix() for p in PACKAGE_SOURCE.rglob("*.pyx")}


def test_setup_compiles_the_emulated_build_only_when_asked():
    setup = load_setup()
    release = set(setup.cython_modules("x86_64", {}))
    assert release == every_pyx() - {EMULATED_PYX}
    assert set(setup.cython_modules("x86_64", {"NTT_CY_BUILD_EMULATED": "1"})) == every_pyx()
    assert set(setup.cython_modules("x86_64", {"NTT_CY_BUILD_EMULATED": "0"})) == release
    if os.environ.get("NTT_CY_BUILD_EMULATED") == "1" and setup.platform.machine() == "x86_64":
        # .ci/run exports the switch for the install and the tests alike: it reached the build
        assert importlib.util.find_spec("ntt_cy._kernels.build_avx512_emulated") is not None


def test_setup_compiles_the_portable_build_alone_outside_x86_64():
    setup = load_setup()
    for machine in ("aarch64", "arm64", "ppc64le"):
        modules = set(setup.cython_modules(machine, {"NTT_CY_BUILD_EMULATED": "1"}))
        assert modules == every_pyx() - ISA_PYX
        assert "ntt_cy/_kernels/build_portable.pyx" in modules


def test_release_builds_are_stripped_and_debug_builds_are_not():
    setup = load_setup()
    compile_args, link_args = setup.release_flags(debug=False)
    assert "-O3" in compile_args and "-g0" in compile_args
    assert link_args == (["-s"] if sys.platform.startswith("linux") else [])
    compile_args, link_args = setup.release_flags(debug=True)
    assert compile_args == ["-O0", "-g"] and link_args == []


# ---------------------------------------------------------------- the sdist

def manifest_files() -> set:
    """The files MANIFEST.in names (its include and recursive-include lines, the only
    kinds it uses), relative to the repository root."""
    found = set()
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        command, args = words[0], words[1:]
        if command == "include":
            found.update(p for a in args for p in glob.glob(a, root_dir=ROOT))
        elif command == "recursive-include":
            folder, patterns = args[0], args[1:]
            found.update(p for pattern in patterns
                         for p in glob.glob(f"{folder}/**/{pattern}", root_dir=ROOT,
                                            recursive=True))
        else:
            raise AssertionError(f"MANIFEST.in: {command} is not read by this test")
    return {pathlib.Path(p).as_posix() for p in found}


def test_sdist_holds_every_source_a_build_needs_and_nothing_generated():
    files = manifest_files()
    assert {"README.md", "LICENSE", "setup.py", "pyproject.toml"} <= files
    needed = {p.relative_to(ROOT).as_posix() for p in PACKAGE_SOURCE.rglob("*")
              if p.suffix in (".py", ".pyx", ".pxd", ".pxi", ".h", ".cu", ".cuh", ".pyi")
              or p.name == "py.typed"}
    assert {"ntt_cy/cuda/ntt.cu", "ntt_cy/_kernels/u128.h", EMULATED_PYX, "ntt_cy/py.typed",
            "ntt_cy/_support/openmp_runtime.pyi"} <= needed
    assert needed <= files
    assert not [p for p in files if p.endswith((".c", ".so", ".pyd", ".json"))]
