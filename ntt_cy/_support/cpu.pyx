# CPU feature detection, compiled for the baseline ISA so it is always safe to import.

cdef extern from *:
    """
    static int ntt_cy_cpu_supports(int which) {
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
        __builtin_cpu_init();
        switch (which) {
            case 0: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")
                        && __builtin_cpu_supports("fma");   /* the _ntt_avx2 build's -mfma */
            case 1: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
                        && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
            case 2: return __builtin_cpu_supports("avx512ifma");
        }
    #endif
        return 0;
    }
    """
    int ntt_cy_cpu_supports(int which) nogil


def cpu_features():
    """The instruction-set extensions ntt_cy can use on this CPU."""
    found = []
    for code, name in enumerate(("avx2", "avx512", "avx512ifma")):
        if ntt_cy_cpu_supports(code):
            found.append(name)
    return found
