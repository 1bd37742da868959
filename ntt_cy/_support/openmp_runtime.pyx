# The OpenMP runtime the kernels run on, as the thread default reads it.
#
# Compiled with the kernels' OpenMP flags and linked to the same runtime (libgomp, or the
# copy a wheel carries), so that omp_get_max_threads() answers for the runtime the
# kernels use: OMP_NUM_THREADS as it read it when it loaded, and every limit set since
# through omp_set_num_threads (threadpoolctl.threadpool_limits calls it).

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static int ntt_cy_omp_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int ntt_cy_omp_max_threads(void) { return 0; }
    #endif
    """
    int ntt_cy_omp_max_threads() nogil


def max_threads():
    """The calling thread's OpenMP thread limit (omp_get_max_threads), or 0 in a build
    without OpenMP."""
    return ntt_cy_omp_max_threads()
