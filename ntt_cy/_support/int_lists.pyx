# Lists and tuples of Python ints as int64 arrays, for the single-row routes
# (_checks.single_row_operand).  numpy's np.asarray(list) first discovers the dtype
# over every element, then converts each one: 70-120 ns an int, 12-30 us of a small
# product of two 256-value lists.  A list whose elements are all exact ints in int64
# needs neither; anything else (bools, numpy scalars, floats, ints outside int64,
# nested sequences) returns None and takes numpy's conversion, so the results and the
# errors are numpy's either way.
from cpython.long cimport PyLong_AsLongLongAndOverflow, PyLong_CheckExact
from cpython.ref cimport PyObject
from libc.stdint cimport int64_t

import numpy as np

cimport numpy as cnp

cnp.import_array()

cdef extern from "Python.h":
    PyObject* PySequence_Fast_GET_ITEM(object, Py_ssize_t)   # borrowed; list or tuple only


def int64_from_ints(seq):
    """seq (a list or tuple) as a new 1-D int64 array, or None unless every element is
    a Python int (type int exactly: no bool, no subclass) in [-2^63, 2^63)."""
    if type(seq) is not list and type(seq) is not tuple:
        raise TypeError("internal: int64_from_ints takes a list or a tuple")
    cdef Py_ssize_t n = len(seq), i
    cdef cnp.npy_intp dims = n
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(1, &dims, cnp.NPY_INT64, 0)
    cdef int64_t* dst = <int64_t*>cnp.PyArray_DATA(out)
    cdef PyObject* item
    cdef int overflow = 0
    cdef long long value
    for i in range(n):
        # (a list cannot change length here: nothing below runs Python code)
        item = PySequence_Fast_GET_ITEM(seq, i)
        if not PyLong_CheckExact(<object>item):
            return None
        value = PyLong_AsLongLongAndOverflow(<object>item, &overflow)
        if overflow:
            return None
        dst[i] = value
    return out
