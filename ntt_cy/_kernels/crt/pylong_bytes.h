/* An exact Python int's value as n little-endian unsigned bytes, on every supported
 * CPython (3.13 made the private _PyLong_AsByteArray take a sixth argument and added
 * the public PyLong_AsNativeBytes).
 *
 * Returns 0 when 0 <= v < 2^(8 n) (out holds it), 1 when v is negative or needs more
 * than n bytes (no exception left set; out is meaningless), -1 with an exception set
 * on any other error.  v must be an exact int (PyLong_CheckExact).
 */
#ifndef NTT_CY_PYLONG_BYTES_H
#define NTT_CY_PYLONG_BYTES_H

#include <Python.h>

static inline int ntt_cy_int_to_le_bytes(PyObject *v, unsigned char *out, size_t n)
{
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(
        v, out, (Py_ssize_t)n,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
            | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {   /* negative */
            PyErr_Clear();
            return 1;
        }
        return -1;
    }
    return need > (Py_ssize_t)n;
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, out, n, 1, 0) < 0) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {   /* negative, or too large */
            PyErr_Clear();
            return 1;
        }
        return -1;
    }
    return 0;
#endif
}

#endif
