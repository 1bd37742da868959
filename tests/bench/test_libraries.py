"""The library adapters of ntt_cy.bench.libraries, each checked against ntt_cy on tiny
inputs through the command (whatever is installed must agree)."""
from ntt_cy import bench
from ntt_cy.bench import cases, libraries

FAST = ["--quick", "--repeat", "1", "--budget", "0.01", "-q"]


def test_all_ops_quick_with_installed_competitors(capsys):
    """The real competitor list on tiny inputs: whatever is installed must agree."""
    assert bench.main(FAST) == 0
    out = capsys.readouterr().out
    for heading in ("forward NTT mod", "polymul (linear) mod 998244353",
                    "polymul (linear) mod 1337006139375617", "polymul (linear) mod 1000000007",
                    f"polymul (linear) mod {cases.M_BN254}", "bigmul"):
        assert heading in out
    assert "MISMATCH" not in out


def test_ntt_cy_comes_first_and_runs_every_operation():
    # the first library's answer is the reference every other one is checked against
    first = libraries.LIBRARIES[0]
    assert first.name == "ntt_cy" and set(first.ops) == set(cases.OPS)
    assert first.multithreaded
    names = [lib.name for lib in libraries.LIBRARIES]
    assert len(set(names)) == len(names)


def test_skips_say_why():
    sympy, numpy_ = libraries.Sympy(), libraries.Numpy()
    assert "NTT-friendly" in sympy.skip(cases.Case("polymul", 64, cases.M_CRT))
    assert sympy.skip(cases.Case("polymul", 64, cases.P30)) is None
    assert "n <= 16384" in sympy.skip(cases.Case("ntt", 2**15, cases.P30))
    assert numpy_.skip(cases.Case("polymul", 64, cases.M_BN254)) is None   # object dtype
    assert "overflow" in numpy_.skip(cases.Case("polymul", 4096, cases.M_BN254))
    assert "p >= 2^31" in libraries.Galois().skip(cases.Case("ntt", 16, cases.P51))
