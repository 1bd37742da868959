# Element-wise passes of a transform: loading (with the largest value seen), the
# negacyclic twist, the final fold and the inverse scaling.  Each pass covers the
# index range [lo, hi) of one row, so threads can share a row.

cdef inline Py_ssize_t simd_times(const lane_t* src, lane_t* dst, const Twiddles* w,
                                  Py_ssize_t lo, Py_ssize_t hi, const Tables* t,
                                  bint fold) noexcept nogil:
    # Vector part of dst[i] = src[i] * w[i] for lo <= i < hi (uint32 lanes in AVX-512
    # builds, uint64 LAZY in AVX2 builds): returns where the caller's scalar loop
    # continues.
    cdef Py_ssize_t done = 0
    cdef const uint32_t* wq = <const uint32_t*>w.q
    cdef ntt64_params prm
    if lane_t is uint32_t:
        done = <Py_ssize_t>ntt32_times(
            src + lo, dst + lo, <const uint32_t*>w.w + lo, wq + lo if wq != NULL else NULL,
            hi - lo, <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family,
            fold)
    else:
        prm = simd64_params(&t.mod, t.family)
        done = <Py_ssize_t>ntt64_times(src + lo, dst + lo, offset(w.f, lo),
                                       offset(w.fq, lo), hi - lo, fold, &prm)
    return lo + done


cdef void load_forward(const lane_t* src, lane_t* dst, Py_ssize_t lo, Py_ssize_t hi,
                       const Tables* t) noexcept nogil:
    # dst = src (cyclic) or src * psi^i (negacyclic); src may equal dst.  Out: [0, p)
    # for exact families and uint32 SHOUP31 (runs_shoup31), [0, 2p) for LAZY (a valid
    # DIF input).
    cdef Py_ssize_t i
    cdef const lane_t* tw = <const lane_t*>t.twist.w
    cdef const lane_t* twq = <const lane_t*>t.twist.q
    cdef lane_t v, p = <lane_t>t.mod.p
    cdef bint fold = lane_t is uint32_t and runs_shoup31(t)
    if tw == NULL:
        if src != dst:
            for i in range(lo, hi):
                dst[i] = src[i]
    elif t.family == LAZY:
        for i in range(simd_times(src, dst, &t.twist, lo, hi, t, fold), hi):
            v = mul_family(src[i], tw[i], twq[i], &t.mod, LAZY)
            dst[i] = v - p if fold and v >= p else v
    else:
        for i in range(simd_times(src, dst, &t.twist, lo, hi, t, False), hi):
            dst[i] = mul_family(src[i], tw[i], 0, &t.mod, t.family)


cdef void finish_forward(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # LAZY DIF leaves [0, 2p): fold to [0, p).  A select, not a conditional store: gcc
    # vectorises it (as a branch, half the values would be mispredicted).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, v
    if t.family == LAZY:
        for i in range(lo, hi):
            v = a[i]
            a[i] = v - p if v >= p else v


cdef void finish_inverse(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # Multiply by n^-1 (cyclic) or n^-1 psi^-i (negacyclic).  In: [0, p), or [0, 4p)
    # for LAZY (a valid Shoup input, result [0, 2p), then folded).  Out: [0, p).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, v
    cdef const lane_t* s = <const lane_t*>t.untwist.w
    cdef const lane_t* sq = <const lane_t*>t.untwist.q
    cdef lane_t c = <lane_t>t.scale, cq = <lane_t>t.scale_q
    cdef ntt64_params prm
    if t.family == LAZY:
        if s == NULL:
            i = lo
            if lane_t is uint64_t:
                prm = simd64_params(&t.mod, t.family)
                i += <Py_ssize_t>ntt64_scale(a + lo, hi - lo, c, &prm)
            else:
                i += <Py_ssize_t>ntt32_scale_lazy(a + lo, hi - lo, c, cq, p)
            while i < hi:
                v = mul_family(a[i], c, cq, &t.mod, LAZY)
                a[i] = v - p if v >= p else v
                i += 1
        else:
            for i in range(simd_times(a, a, &t.untwist, lo, hi, t, True), hi):
                v = mul_family(a[i], s[i], sq[i], &t.mod, LAZY)
                a[i] = v - p if v >= p else v
    elif s == NULL:
        for i in range(lo, hi):
            a[i] = mul_family(a[i], c, 0, &t.mod, t.family)
    else:
        for i in range(simd_times(a, a, &t.untwist, lo, hi, t, False), hi):
            a[i] = mul_family(a[i], s[i], 0, &t.mod, t.family)


cdef void fold_lazy_dit(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # LAZY DIT leaves [0, 4p): fold to [0, p).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, two_p = <lane_t>t.mod.two_p, v
    if t.family == LAZY:
        for i in range(lo, hi):
            v = a[i]
            v = v - two_p if v >= two_p else v
            a[i] = v - p if v >= p else v


cdef void copy_range(const lane_t* src, lane_t* dst, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef Py_ssize_t i
    if src != dst:
        for i in range(lo, hi):
            dst[i] = src[i]
