# Products modulo m >= 2^64 (several 64-bit words a coefficient): the coefficients'
# residues mod every CRT prime, and the coefficients mod m rebuilt from Garner's
# digits, both in C.  They replace numpy object-array arithmetic (a Python-int
# operation per coefficient and prime, ~60-100 ns each: `% p` per prime going in,
# CRTBasis.to_ints then `% m` coming out).  Measured on the 2-core Zen 3 VM: see
# poly._linear_object.
#
# Words are little-endian: value = sum_t words[t] 2^(64 t).
import sys

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_CheckExact
from cpython.ref cimport Py_INCREF
from cython.parallel cimport prange
from libc.stdint cimport uint64_t

from ntt_cy._arith64 cimport mod_wide64
from ntt_cy._openmp cimport check_threads

cdef extern from "_u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)
    uint64_t ntt_mulhi64(uint64_t a, uint64_t b)

cdef extern from "Python.h":
    # (what Cython's own int conversions call; int.from_bytes without its argument
    # parsing and a bytes slice per value: ~4x sooner)
    object _PyLong_FromByteArray(const unsigned char* data, size_t n, int little_endian,
                                 int is_signed)

cdef extern from "_pylong_bytes.h":
    int ntt_cy_int_to_le_bytes(object v, unsigned char* out, size_t n) except -1

DEF MAX_WORDS = 65   # digits_mod: m below 2^4096

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
    arrays are residues already (poly._as_residues keeps them, instead of int(v) % m
    for each, ~240 ns a value; this is ~40)."""
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


def digits_mod(const uint64_t[:, ::1] digits, const uint64_t[:, ::1] weights,
               const uint64_t[::1] quotients, const uint64_t[::1] m, uint64_t[:, ::1] out,
               int threads):
    """out[i] = sum_j digits[j, i] weights[j] mod m, M words.   # IN digits (k, N),
    weights (k, M); OUT out (N, M)

    m >= 2 in M words (its top word not 0); weights[j] < m; quotients[j] =
    floor(weights[j] 2^64 / m) < 2^64; digits < 2^64.  Each term by Shoup's product
    on words: q = floor(v quotients[j] / 2^64) gives v W_j - q m in [0, 2m) (as for
    one word: q <= v W_j / m < q + 2, whatever m's size), computed mod 2^(64 (M + 1)),
    where it is exact; then added mod m (the running sum < m, plus a term < 2m: at
    most two subtractions).  With Garner's digits and weights[j] = p_0 ... p_{j-1}
    mod m: the coefficients mod m.
    """
    cdef Py_ssize_t k = digits.shape[0], N = digits.shape[1], M = m.shape[0], i
    if weights.shape[0] != k or weights.shape[1] != M or quotients.shape[0] != k \
            or out.shape[0] != N or out.shape[1] != M or k < 1 or M < 1 \
            or M + 1 > MAX_WORDS:
        raise ValueError("internal: digits_mod shapes differ")
    if m[M - 1] == 0:
        raise ValueError("internal: digits_mod needs m's top word nonzero")
    check_threads(threads)
    if N == 0:
        return
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            digit_mod(&digits[0, i], N, k, &weights[0, 0], &quotients[0], &m[0], M, &out[i, 0])


cdef void digit_mod(const uint64_t* digit, Py_ssize_t stride, Py_ssize_t k,
                    const uint64_t* weights, const uint64_t* quotients, const uint64_t* m,
                    Py_ssize_t M, uint64_t* acc) noexcept nogil:
    # acc[0:M] = sum_j digit[j stride] weights[j M : (j + 1) M] mod m (see digits_mod)
    cdef uint64_t r[MAX_WORDS]
    cdef uint64_t x, q, lo, hi, c, b, s
    cdef Py_ssize_t j, t
    for t in range(M):
        acc[t] = 0
    for j in range(k):
        x = digit[j * stride]
        q = ntt_mulhi64(x, quotients[j])
        # r = x W_j (M + 1 words)
        c = 0
        for t in range(M):
            lo = ntt_mul_wide(x, weights[j * M + t], &hi)
            r[t] = lo + c
            c = hi + (r[t] < lo)
        r[M] = c
        # r -= q m, mod 2^(64 (M + 1)): the borrow b is the product's high word and the
        # borrows out
        b = 0
        for t in range(M):
            lo = ntt_mul_wide(q, m[t], &hi)
            s = lo + b
            hi += s < lo
            hi += r[t] < s
            r[t] -= s
            b = hi
        r[M] -= b
        # acc += r (acc < m, r < 2m: the sum < 3m fits M + 1 words), then at most two
        # subtractions of m
        c = 0
        for t in range(M):
            s = acc[t] + c
            c = s < c
            acc[t] = s + r[t]
            c += acc[t] < s
        r[M] += c
        while ge_words(r[M], acc, m, M):
            r[M] -= sub_words(acc, m, M)


cdef inline bint ge_words(uint64_t top, const uint64_t* a, const uint64_t* m,
                          Py_ssize_t M) noexcept nogil:
    # top 2^(64 M) + a >= m
    cdef Py_ssize_t t
    if top:
        return True
    for t in range(M - 1, -1, -1):
        if a[t] != m[t]:
            return a[t] > m[t]
    return True


cdef inline uint64_t sub_words(uint64_t* a, const uint64_t* m, Py_ssize_t M) noexcept nogil:
    # a -= m (M words); returns the borrow out of the top word
    cdef uint64_t b = 0, s
    cdef Py_ssize_t t
    for t in range(M):
        s = m[t] + b
        b = (s < b) | (a[t] < s)
        a[t] -= s
    return b
