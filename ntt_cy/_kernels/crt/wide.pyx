# Products modulo m >= 2^64 (several 64-bit words a coefficient), in C: the operands'
# residues mod every CRT prime going in, and the coefficients mod m rebuilt from Garner's
# digits (garner32 / garner64 / the kernel builds' garner32_digits) coming out, in place
# of numpy object-array arithmetic (a Python-int operation per coefficient and prime).
#
#   words_of_ints, ints_from_words      exact Python ints <-> rows of 64-bit words;
#   exact_ints_below                    whether an object array holds residues mod m;
#   words_mod_primes,                   the values of word rows mod every prime (62-bit
#   words_mod_small_primes              primes; primes < 2^31, every prime at once);
#   mixed_radix_mod_multiword           x mod m as words, from the digits and the weights
#                                       W_j = p_0 ... p_{j-1} mod m (Shoup products on
#                                       words, one product by m a coefficient).
#
# Words are little-endian: value = sum_t words[t] 2^(64 t).
import sys

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_CheckExact
from cpython.ref cimport Py_INCREF
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t

from ntt_cy._kernels.ntt.arith64 cimport mod_wide64
from ntt_cy._support.openmp cimport check_threads

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)
    uint64_t ntt_mulhi64(uint64_t a, uint64_t b)

cdef extern from "Python.h":
    # (what Cython's own int conversions call; int.from_bytes without its argument
    # parsing and a bytes slice per value: ~4x sooner)
    object _PyLong_FromByteArray(const unsigned char* data, size_t n, int little_endian,
                                 int is_signed)

cdef extern from "crt/pylong_bytes.h":
    int ntt_cy_int_to_le_bytes(object v, unsigned char* out, size_t n) except -1

cdef enum:
    MAX_WORDS = 65          # mixed_radix_mod_multiword: m below 2^4096
    MAX_TERMS = 64          # mixed_radix_mod_multiword: digits a coefficient
                            # (k <= 2^(MAX_DOUBLINGS - 1))
    MAX_DOUBLINGS = 7
    MAX_SMALL_PRIMES = 64   # words_mod_small_primes: primes a call (its sums on the stack)

cdef bint LITTLE_ENDIAN = sys.byteorder == "little"   # (read once, at import)


def ints_from_words(const uint64_t[:, ::1] rows):
    """[the value of rows[i] for every i], Python ints.   # IN rows (N, M), M >= 1

    Needs a little-endian CPU (each word's bytes in order): RuntimeError elsewhere.
    """
    cdef Py_ssize_t N = rows.shape[0], M = rows.shape[1], i
    if not LITTLE_ENDIAN:
        raise RuntimeError("internal: ints_from_words assumes a little-endian CPU")
    if M < 1:
        raise ValueError("internal: ints_from_words needs a word a value")
    out = PyList_New(N)
    for i in range(N):
        value = _PyLong_FromByteArray(<const unsigned char*>&rows[i, 0], 8 * M, 1, 0)
        Py_INCREF(value)   # (PyList_SET_ITEM steals a reference)
        PyList_SET_ITEM(out, i, value)
    return out


cdef object[::1] flat_objects(values):
    # An object ndarray of any shape and layout as one C-ordered object[::1] view: such
    # views need a C-contiguous writable buffer, so anything else is copied.
    flat = values.reshape(-1)
    if not (flat.flags.c_contiguous and flat.flags.writeable):
        flat = flat.copy()
    return flat


def words_of_ints(values, uint64_t[:, ::1] out):
    """out[i] = the W words of values.flat[i] (W = out.shape[1]) for exact Python ints
    in [0, 2^(64 W)).  Returns False, out partly written, at the first value that is
    not one (an int subclass, a numpy integer, a negative int, one of more words).
    # IN values, an object ndarray of N values; OUT out (N, W)

    Needs a little-endian CPU (each word's bytes in order): RuntimeError elsewhere.
    (Against int.to_bytes and one bytes.join: ~8x sooner, no bytes object a value.)
    """
    cdef object[::1] flat = flat_objects(values)
    cdef Py_ssize_t N = flat.shape[0], W = out.shape[1], i
    if not LITTLE_ENDIAN:
        raise RuntimeError("internal: words_of_ints assumes a little-endian CPU")
    if out.shape[0] != N or W < 1:
        raise ValueError("internal: words_of_ints shapes differ")
    for i in range(N):
        v = flat[i]
        if not PyLong_CheckExact(v) or \
                ntt_cy_int_to_le_bytes(v, <unsigned char*>&out[i, 0], 8 * W):
            return False
    return True


def exact_ints_below(values, object m):
    """Whether every value of an object ndarray is an exact Python int in [0, m): such
    arrays are residues already (ntt_cy/poly.py keeps them, instead of int(v) % m for
    each, ~240 ns a value; this is ~40)."""
    cdef object[::1] flat = flat_objects(values)
    cdef Py_ssize_t i
    for i in range(flat.shape[0]):
        v = flat[i]
        if not PyLong_CheckExact(v) or v < 0 or v >= m:
            return False
    return True


def words_mod_primes(const uint64_t[:, ::1] words, const uint64_t[::1] primes,
                     const uint64_t[:, ::1] barrett, uint64_t[:, ::1] out, int threads):
    """out[j, i] = the value of words[i] mod primes[j].   # IN words (N, W); OUT out (k, N)

    2 <= p_j < 2^64 with barrett[j] = (d, v, shift), p_j's barrett_mul64 constants
    (ntt_cy.plan.modulus_constants).  Horner from the top word, r <- (r 2^64 + w_t)
    mod p_j: r < p_j, the high word mod_wide64 needs below p_j; result in [0, p_j).
    """
    cdef Py_ssize_t N = words.shape[0], W = words.shape[1], k = primes.shape[0], i, j, t
    cdef uint64_t r, p, d, v
    cdef int shift
    if out.shape[0] != k or out.shape[1] != N or barrett.shape[0] != k or barrett.shape[1] != 3:
        raise ValueError("internal: words_mod_primes shapes differ")
    check_threads(threads)
    for j in range(k):
        if primes[j] < 2 or barrett[j, 2] > 62:
            raise ValueError("internal: words_mod_primes needs primes >= 2 and their constants")
    if N == 0 or W == 0:
        out[:, :] = 0
        return
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            for j in range(k):
                p = primes[j]
                d = barrett[j, 0]
                v = barrett[j, 1]
                shift = <int>barrett[j, 2]
                r = mod_wide64(0, words[i, W - 1], d, v, shift)
                for t in range(W - 2, -1, -1):
                    r = mod_wide64(r, words[i, t], d, v, shift)
                out[j, i] = r


def words_mod_small_primes(const uint64_t[:, ::1] words, const uint32_t[:, ::1] powers,
                           const uint64_t[:, ::1] barrett, uint64_t[:, ::1] out, int threads):
    """words_mod_primes for primes p_j < 2^31, by half words.   # IN words (N, W),
    powers (2 W, k); OUT out (k, N)

    powers[s, j] = 2^(32 s) mod p_j (< 2^31); barrett[j] = p_j's barrett_mul64
    constants; k <= MAX_SMALL_PRIMES.  Per value, for every prime at once (the primes
    innermost: 32 x 32 -> 64-bit products, vectorised), the sum of its 2 W half words
    h_s times powers[s, j]: each product below 2^32 2^31 = 2^63, so the 2 W of them
    carry into a high word below W < p_j, as mod_wide64 needs; one reduction a prime
    then, result in [0, p_j)."""
    cdef Py_ssize_t N = words.shape[0], W = words.shape[1], k = powers.shape[1], i, j, t
    if out.shape[0] != k or out.shape[1] != N or powers.shape[0] != 2 * W \
            or barrett.shape[0] != k or barrett.shape[1] != 3 or k > MAX_SMALL_PRIMES:
        raise ValueError("internal: words_mod_small_primes shapes differ")
    check_threads(threads)
    for j in range(k):
        for t in range(2 * W):
            if powers[t, j] >= (<uint32_t>1 << 31):
                raise ValueError("internal: words_mod_small_primes needs powers below 2^31")
        if barrett[j, 2] > 62 or (barrett[j, 0] >> barrett[j, 2]) <= <uint64_t>W:
            raise ValueError("internal: words_mod_small_primes needs primes above W and "
                             "their constants")
    if N == 0 or W == 0:
        out[:, :] = 0
        return
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            value_mod_small_primes(&words[i, 0], W, &powers[0, 0], k, &barrett[0, 0],
                                   &out[0, i], N)


cdef void value_mod_small_primes(const uint64_t* words, Py_ssize_t W, const uint32_t* powers,
                                 Py_ssize_t k, const uint64_t* barrett, uint64_t* out,
                                 Py_ssize_t stride) noexcept nogil:
    # out[j stride] = the value of words[0:W] mod p_j for every j (words_mod_small_primes)
    cdef uint64_t lo[MAX_SMALL_PRIMES]
    cdef uint64_t hi[MAX_SMALL_PRIMES]
    cdef uint64_t prod
    cdef uint32_t half
    cdef const uint32_t* c
    cdef Py_ssize_t j, s
    for j in range(k):
        lo[j] = 0
        hi[j] = 0
    for s in range(2 * W):
        half = <uint32_t>(words[s >> 1] >> (32 * (s & 1)))
        c = powers + s * k
        for j in range(k):
            prod = <uint64_t>half * c[j]
            lo[j] += prod
            hi[j] += lo[j] < prod
    for j in range(k):
        out[j * stride] = mod_wide64(hi[j], lo[j], barrett[3 * j], barrett[3 * j + 1],
                                     <int>barrett[3 * j + 2])


def mixed_radix_mod_multiword(const uint64_t[:, ::1] digits, const uint64_t[:, ::1] weights,
                              const uint64_t[::1] quotients, const uint64_t[::1] m,
                              uint64_t[:, ::1] out, int threads):
    """out[i] = sum_j digits[j, i] weights[j] mod m, M words.   # IN digits (k, N),
    weights (k, M); OUT out (N, M)

    m >= 2 in M words (its top word not 0); 1 <= k <= MAX_TERMS; weights[j] < m;
    quotients[j] = floor(weights[j] 2^64 / m) < 2^64; digits < 2^64.  Shoup's product
    on words: with q_j = floor(v_j quotients[j] / 2^64), v_j W_j - q_j m lies in [0,
    2m) (as for one word: q_j <= v_j W_j / m < q_j + 2, whatever m's size).  Summed
    over j, the products v_j W_j less (sum_j q_j) m (Q below k 2^64: two words) give R
    in [0, 2 k m), below 2^(64 M + 7) for k <= 64: so all of it is computed mod
    2^(64 (M + 1)), where R is exact (a scratch word above takes the carries out and is
    never read); then R - 2^b m wherever R >= 2^b m, b from the top of 2k down to 0,
    leaves R mod m.  One product by m for all the terms instead of one each.
    With Garner's digits and weights[j] = p_0 ... p_{j-1} mod m: the coefficients mod m.
    """
    cdef Py_ssize_t k = digits.shape[0], N = digits.shape[1], M = m.shape[0], i, b, t
    cdef uint64_t multiples[MAX_DOUBLINGS * MAX_WORDS]   # 2^b m, M + 1 words each
    cdef int steps
    if weights.shape[0] != k or weights.shape[1] != M or quotients.shape[0] != k \
            or out.shape[0] != N or out.shape[1] != M or k < 1 or M < 1 \
            or M + 1 > MAX_WORDS or k > MAX_TERMS:
        raise ValueError("internal: mixed_radix_mod_multiword shapes differ")
    if m[M - 1] == 0:
        raise ValueError("internal: mixed_radix_mod_multiword needs m's top word nonzero")
    check_threads(threads)
    if N == 0:
        return
    steps = (2 * k - 1).bit_length()   # 2 k <= 2^steps
    for b in range(steps):
        for t in range(M + 1):
            multiples[b * (M + 1) + t] = \
                ((m[t] << b) if t < M else 0) | ((m[t - 1] >> (64 - b)) if t and b else 0)
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            weighted_sum_mod_words(&digits[0, i], N, k, &weights[0, 0], &quotients[0], &m[0],
                                   M, multiples, steps, &out[i, 0])


cdef void weighted_sum_mod_words(const uint64_t* digit, Py_ssize_t stride, Py_ssize_t k,
                                 const uint64_t* weights, const uint64_t* quotients,
                                 const uint64_t* m, Py_ssize_t M, const uint64_t* multiples,
                                 int steps, uint64_t* acc) noexcept nogil:
    # acc[0:M] = sum_j digit[j stride] weights[j M : (j + 1) M] mod m
    # (see mixed_radix_mod_multiword)
    cdef uint64_t r[MAX_WORDS + 1]
    cdef uint64_t x, lo, hi, c, s, q_lo = 0, q_hi = 0
    cdef Py_ssize_t j, t, b
    for t in range(M + 2):
        r[t] = 0
    for j in range(k):
        x = digit[j * stride]
        s = ntt_mulhi64(x, quotients[j])
        q_lo += s
        q_hi += q_lo < s
        # r += x W_j: x w_t + r_t + c fits two words, so hi takes the carries
        c = 0
        for t in range(M):
            lo = ntt_mul_wide(x, weights[j * M + t], &hi)
            s = r[t] + lo
            hi += s < lo
            r[t] = s + c
            hi += r[t] < c
            c = hi
        r[M] += c
        r[M + 1] += r[M] < c
    # r -= q_lo m, then q_hi m one word up: words 0..M exact mod 2^(64 (M + 1)), r[M + 1]
    # only the carries' scratch
    sub_product(r, q_lo, m, M)
    sub_product(r + 1, q_hi, m, M)
    # r in [0, 2^steps m): at most one subtraction of each 2^b m, largest first
    for b in range(steps - 1, -1, -1):
        if not below_words(r, multiples + b * (M + 1), M + 1):
            sub_words(r, multiples + b * (M + 1), M + 1)
    for t in range(M):
        acc[t] = r[t]


cdef inline void sub_product(uint64_t* r, uint64_t q, const uint64_t* m,
                             Py_ssize_t M) noexcept nogil:
    # r[0 : M + 1] -= q m, mod 2^(64 (M + 1)): each word's borrow b is the product's high
    # word and the borrows out
    cdef uint64_t b = 0, lo, hi, s
    cdef Py_ssize_t t
    for t in range(M):
        lo = ntt_mul_wide(q, m[t], &hi)
        s = lo + b
        hi += s < lo
        hi += r[t] < s
        r[t] -= s
        b = hi
    r[M] -= b


cdef inline bint below_words(const uint64_t* a, const uint64_t* c,
                             Py_ssize_t W) noexcept nogil:
    # a < c, W words each
    cdef Py_ssize_t t
    for t in range(W - 1, -1, -1):
        if a[t] != c[t]:
            return a[t] < c[t]
    return False


cdef inline uint64_t sub_words(uint64_t* a, const uint64_t* m, Py_ssize_t M) noexcept nogil:
    # a -= m (M words); returns the borrow out of the top word
    cdef uint64_t b = 0, s
    cdef Py_ssize_t t
    for t in range(M):
        s = m[t] + b
        b = (s < b) | (a[t] < s)
        a[t] -= s
    return b
