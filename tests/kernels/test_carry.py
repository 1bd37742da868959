"""ntt_cy._kernels.crt.carry: bigmul's limbs from bytes and its carried product back to bytes,
against Python ints, at every limb width and around the ends where the whole-word
loads and stores give way to byte copies."""
import random

import numpy as np
import pytest

from ntt_cy._kernels.crt import carry as _carry

PRIMES = (1053818881, 1051721729, 1045430273)   # ~30-bit NTT primes, as bigmul takes them
PRIMES62 = (4611686018326724609, 4611686018309947393)


@pytest.mark.parametrize("w", range(1, _carry.MAX_LIMB_BYTES + 1))
def test_limbs_from_bytes_every_width_and_length(w):
    rng = random.Random(w)
    for L in range(1, 24):
        for fill in ("random", "ones"):
            raw = bytes(rng.randrange(256) for _ in range(L * w)) if fill == "random" \
                else b"\xff" * (L * w)
            out = np.full(L, 0xDEAD, dtype=np.uint64)
            _carry.limbs_from_bytes(raw, w, out)
            v = int.from_bytes(raw, "little")
            want = [(v >> (8 * w * i)) & ((1 << (8 * w)) - 1) for i in range(L)]
            assert out.tolist() == want, (w, L, fill)


def _garner_digits(c, primes):
    digits = []
    for p in primes:
        digits.append(c % p)
        c //= p
    assert c == 0
    return digits


@pytest.mark.parametrize("primes", [PRIMES, PRIMES[:2], PRIMES62, PRIMES[:1]])
@pytest.mark.parametrize("w", range(1, _carry.MAX_LIMB_BYTES + 1))
def test_digits_to_bytes_is_the_sum_of_the_coefficients(primes, w):
    rng = random.Random(len(primes) * 10 + w)
    top = 1
    for p in primes:
        top *= p
    for L in (1, 2, 3, 7, 40):
        for fill in ("random", "largest"):
            coeffs = [rng.randrange(top) if fill == "random" else top - 1 for _ in range(L)]
            digits = np.array([_garner_digits(c, primes) for c in coeffs],
                              dtype=np.uint64).T.copy()
            size = (L + 128 // (8 * w) + 1) * w
            out = np.full(size + 8, 0xAB, dtype=np.uint8)
            _carry.digits_to_bytes(digits, np.array(primes, dtype=np.uint64), w, out)
            want = sum(c << (8 * w * k) for k, c in enumerate(coeffs))
            assert int.from_bytes(out[:size].tobytes(), "little") == want, (w, L, fill)


def test_bad_parameters_are_value_errors():
    out = np.zeros(4, dtype=np.uint64)
    for w, raw in ((0, b""), (8, b"\0" * 32), (2, b"\0" * 7)):
        with pytest.raises(ValueError, match="internal"):
            _carry.limbs_from_bytes(raw, w, out)
    digits = np.zeros((2, 4), dtype=np.uint64)
    primes = np.array(PRIMES[:2], dtype=np.uint64)
    with pytest.raises(ValueError, match="too short"):
        _carry.digits_to_bytes(digits, primes, 4, np.zeros((4 + 4 + 1) * 4 + 7, dtype=np.uint8))
    for w in (0, 8):
        with pytest.raises(ValueError, match="internal"):
            _carry.digits_to_bytes(digits, primes, w, np.zeros(256, dtype=np.uint8))


@pytest.mark.parametrize("w", [0, -1, -8, _carry.MAX_LIMB_BYTES + 1, 64])
def test_limb_widths_are_refused_before_the_carry_arithmetic(w):
    # the output size divides by the limb's bits: a zero width must be refused before
    # that division (with cdivision it is undefined behaviour, which tools/sanitize.sh's
    # UBSan build reports), and so must widths whose shifts pass 64 bits
    digits = np.ones((2, 5), dtype=np.uint64)
    primes = np.array(PRIMES[:2], dtype=np.uint64)
    for out in (np.zeros(1024, dtype=np.uint8), np.zeros(0, dtype=np.uint8)):
        with pytest.raises(ValueError, match="bad carry parameters"):
            _carry.digits_to_bytes(digits, primes, w, out)
