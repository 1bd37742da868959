"""The workloads of ntt_cy.bench.cases: the standard set, size options, titles."""
import pytest

from ntt_cy.bench import cases
from ntt_cy.bench.cases import Case, default_cases


def test_default_cases_cover_the_standard_workloads():
    standard = set(default_cases())
    for m in (998244353, 1337006139375617, 10**9 + 7, 2**61 - 1):
        assert Case("polymul", 131072, m) in standard
    assert Case("ntt", 2**17, 998244353) in standard
    assert Case("ntt", 2**20, 998244353) in standard
    assert Case("ntt", 2**14, 998244353, rows=64) in standard
    assert {c.size for c in standard if c.op == "bigmul"} == {10**5, 10**6, 10**7}
    assert {c.op for c in default_cases(only="bigmul")} == {"bigmul"}


@pytest.mark.parametrize("sizes", [[2**17], [2**10, 2**17], [2**20], [16]])
def test_sizes_keep_the_batch_within_a_million_elements(sizes):
    batches = [c for c in default_cases(sizes=sizes, only="ntt") if c.rows > 1]
    assert all(c.rows * c.size <= 1 << 20 for c in batches)
    # a batch of one row would repeat the single transform of that size
    assert len(batches) == (0 if min(sizes) >= 1 << 20 else 1)


def test_titles_name_long_moduli_briefly():
    # the table heading keeps every digit; a figure panel's title stays short
    bn = Case("polymul", 64, cases.M_BN254)
    assert str(cases.M_BN254) in bn.group
    assert bn.title == "polymul (linear) mod BN254's r (254 bits)"
    assert Case("polymul", 64, cases.M61).title == "polymul (linear) mod 2^61 - 1"
    assert Case("ntt", 16, cases.P30, rows=4).title == "forward NTT batch 4 rows mod 998244353"
    assert Case("bigmul", 1000).title == Case("bigmul", 1000).group
    assert cases.modulus_label(3 * 2**100 + 1) == "a 102-bit modulus"
    assert max(len(c.title) for c in default_cases()) <= 42


def test_only_keeps_one_or_several_operations():
    assert {c.op for c in default_cases(quick=True, only="ntt")} == {"ntt"}
    assert {c.op for c in default_cases(quick=True, only=("ntt", "bigmul"))} == {"ntt", "bigmul"}
    assert {c.op for c in default_cases(quick=True)} == set(cases.OPS)
