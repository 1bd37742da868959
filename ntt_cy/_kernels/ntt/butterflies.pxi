# Scalar modular arithmetic by family, and runs of butterflies over one stage's
# groups (the SIMD bodies first, the scalar loops for what they leave), radix 2 and 4.

cdef inline lane_t add_mod(lane_t a, lane_t b, lane_t p) noexcept nogil:
    if lane_t is uint32_t:
        return add_mod32(a, b, p)
    else:
        return add_mod64(a, b, p)


cdef inline lane_t sub_mod(lane_t a, lane_t b, lane_t p) noexcept nogil:
    if lane_t is uint32_t:
        return sub_mod32(a, b, p)
    else:
        return sub_mod64(a, b, p)


cdef inline lane_t mul_family(lane_t a, lane_t w, lane_t wq, const Modulus* m, int family) noexcept nogil:
    # a*w mod p for a in [0, 2^L), w in family form; [0, p) except LAZY: [0, 2p).
    if family == MONTGOMERY:
        if lane_t is uint32_t:
            return mont_mul32(a, w, <uint32_t>m.p, <uint32_t>m.mont_pinv)
        elif m.mont_bits == 52:
            return mont_mul52(a, w, m.p, m.mont52_pinv)
        else:
            return mont_mul64(a, w, m.p, m.mont_pinv)
    elif family == BARRETT:
        if lane_t is uint32_t:
            return barrett_mul32(a, w, <uint32_t>m.p, m.barrett_mu)
        else:
            return barrett_mul64(a, w, m.barrett_d, m.barrett_v, m.barrett_shift)
    elif family == GOLDILOCKS:
        if lane_t is uint32_t:   # never asked (the plan refuses the family on uint32 lanes)
            return barrett_mul32(a, w, <uint32_t>m.p, m.barrett_mu)
        else:
            return goldilocks_mul64(a, w)
    else:
        if lane_t is uint32_t:
            return shoup_mul32(a, w, wq, <uint32_t>m.p)
        else:
            return shoup_mul64(a, w, wq, m.p)


cdef inline bint runs_shoup31(const Tables* t) noexcept nogil:
    # For uint32 lanes only: LAZY tables with 2^30 <= p < 2^31, where [0, 4p) does not
    # fit the lane, so the butterflies keep [0, p) in both directions (SHOUP31,
    # simd/families.h; the vector bodies switch by the same test, ntt32_family): a
    # DIF's input and a DIT's must be in [0, p) too.
    return t.family == LAZY and t.mod.p >= (<uint64_t>1 << 30)


cdef inline uint32_t fold31(uint32_t x, uint32_t p) noexcept nogil:
    # [0, 2p) -> [0, p), p < 2^31.
    return x - p if x >= p else x


cdef inline uint32_t shoup_fold31(uint32_t a, uint32_t w, uint32_t wq, uint32_t p) noexcept nogil:
    # a*w mod p in [0, p) for a in [0, 2^32), Shoup quotient wq, p < 2^31: Shoup's
    # [0, 2p) folded once.
    return fold31(shoup_mul32(a, w, wq, p), p)


# ------------------------------------------------------- butterfly runs
# Each run does the butterflies (x[j], y[j]) with twiddle w[j] for j < count.

cdef inline void dif_run_exact(lane_t* x, lane_t* y, const lane_t* w, Py_ssize_t count,
                               const Modulus* m, int family) noexcept nogil:
    # GS butterfly, in/out [0, p): (u, v) -> (u + v, (u - v) * w); every family but LAZY.
    cdef Py_ssize_t j
    cdef lane_t u, v, p = <lane_t>m.p
    if family == MONTGOMERY:
        for j in range(count):
            u = x[j]
            v = y[j]
            x[j] = add_mod(u, v, p)
            y[j] = mul_family(sub_mod(u, v, p), w[j], 0, m, MONTGOMERY)
    elif family == GOLDILOCKS:
        for j in range(count):
            u = x[j]
            v = y[j]
            x[j] = add_mod(u, v, p)
            y[j] = mul_family(sub_mod(u, v, p), w[j], 0, m, GOLDILOCKS)
    else:
        for j in range(count):
            u = x[j]
            v = y[j]
            x[j] = add_mod(u, v, p)
            y[j] = mul_family(sub_mod(u, v, p), w[j], 0, m, BARRETT)


cdef inline void dif_run_lazy(lane_t* x, lane_t* y, const lane_t* w, const lane_t* wq,
                              Py_ssize_t count, const Modulus* m) noexcept nogil:
    # Harvey GS butterfly, in/out [0, 2p), needs 4p <= 2^L:
    # u + v < 4p is folded back below 2p; u - v + 2p in (0, 4p) goes through Shoup -> [0, 2p).
    cdef Py_ssize_t j
    cdef lane_t u, v, s, p = <lane_t>m.p, two_p = <lane_t>m.two_p
    for j in range(count):
        u = x[j]
        v = y[j]
        s = u + v
        x[j] = s - two_p if s >= two_p else s
        y[j] = mul_family(u - v + two_p, w[j], wq[j], m, LAZY)


cdef inline void dif_run_shoup31(uint32_t* x, uint32_t* y, const uint32_t* w,
                                 const uint32_t* wq, Py_ssize_t count,
                                 const Modulus* m) noexcept nogil:
    # SHOUP31 GS butterfly, in/out [0, p), 2^30 <= p < 2^31: u + v < 2p folded; u - v + p
    # in (0, 2p) < 2^32 through Shoup, folded to [0, p).
    cdef Py_ssize_t j
    cdef uint32_t u, v, p = <uint32_t>m.p
    for j in range(count):
        u = x[j]
        v = y[j]
        x[j] = fold31(u + v, p)
        y[j] = shoup_fold31(u - v + p, w[j], wq[j], p)


cdef inline void dit_run_exact(lane_t* x, lane_t* y, const lane_t* w, Py_ssize_t count,
                               const Modulus* m, int family) noexcept nogil:
    # CT butterfly, in/out [0, p): (u, v) -> (u + v*w, u - v*w); every family but LAZY.
    cdef Py_ssize_t j
    cdef lane_t u, t, p = <lane_t>m.p
    if family == MONTGOMERY:
        for j in range(count):
            u = x[j]
            t = mul_family(y[j], w[j], 0, m, MONTGOMERY)
            x[j] = add_mod(u, t, p)
            y[j] = sub_mod(u, t, p)
    elif family == GOLDILOCKS:
        for j in range(count):
            u = x[j]
            t = mul_family(y[j], w[j], 0, m, GOLDILOCKS)
            x[j] = add_mod(u, t, p)
            y[j] = sub_mod(u, t, p)
    else:
        for j in range(count):
            u = x[j]
            t = mul_family(y[j], w[j], 0, m, BARRETT)
            x[j] = add_mod(u, t, p)
            y[j] = sub_mod(u, t, p)


cdef inline void dit_run_lazy(lane_t* x, lane_t* y, const lane_t* w, const lane_t* wq,
                              Py_ssize_t count, const Modulus* m) noexcept nogil:
    # Harvey CT butterfly, in/out [0, 4p), needs 4p <= 2^L: u is folded below 2p,
    # t = Shoup(v) in [0, 2p) (v < 4p <= 2^L is a valid Shoup input), then
    # u + t in [0, 4p) and u - t + 2p in (0, 4p).
    cdef Py_ssize_t j
    cdef lane_t u, t, two_p = <lane_t>m.two_p
    for j in range(count):
        u = x[j]
        if u >= two_p:
            u = u - two_p
        t = mul_family(y[j], w[j], wq[j], m, LAZY)
        x[j] = u + t
        y[j] = u - t + two_p


cdef inline void dit_run_shoup31(uint32_t* x, uint32_t* y, const uint32_t* w,
                                 const uint32_t* wq, Py_ssize_t count,
                                 const Modulus* m) noexcept nogil:
    # SHOUP31 CT butterfly, in/out [0, p), 2^30 <= p < 2^31: t = v w in [0, p) (Shoup,
    # folded), then u + t and u - t + p, both in [0, 2p), folded.
    cdef Py_ssize_t j
    cdef uint32_t u, t, p = <uint32_t>m.p
    for j in range(count):
        u = x[j]
        t = shoup_fold31(y[j], w[j], wq[j], p)
        x[j] = fold31(u + t, p)
        y[j] = fold31(u - t + p, p)


cdef inline Py_ssize_t simd32_run(int forward, uint32_t* a, Py_ssize_t half, Py_ssize_t j0,
                                  Py_ssize_t j1, const Twiddles* tw, const Tables* t,
                                  bint from_q) noexcept nogil:
    # Vector part of a run (a multiple of the vector width); the caller finishes the rest.
    # from_q: the Shoup families read the twiddles' quotients alone (see ntt32_run).
    cdef const uint32_t* twq = <const uint32_t*>tw.q
    return ntt32_run(forward, a + j0, a + half + j0, <const uint32_t*>tw.w + half + j0,
                     twq + half + j0 if twq != NULL else NULL, j1 - j0,
                     <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                     t.family, from_q)


cdef inline ntt64_params simd64_params(const Modulus* m, int family) noexcept nogil:
    # The modulus for simd/ntt64/dispatch.h in `family` (a Tables family code).
    cdef ntt64_params prm
    prm.p = m.p
    prm.pinv = m.mont52_pinv if m.mont_bits == 52 else m.mont_pinv
    prm.barrett_d = m.barrett_d
    prm.barrett_v = m.barrett_v
    prm.barrett_shift = m.barrett_shift
    if family == MONTGOMERY:
        prm.family = MONTGOMERY52 if m.mont_bits == 52 else MONTGOMERY64
    elif family == BARRETT or family == GOLDILOCKS:
        prm.family = family
    else:
        prm.family = LAZY
    return prm


cdef inline const double* offset(const double* table, Py_ssize_t k) noexcept nogil:
    return table + k if table != NULL else NULL


cdef inline Py_ssize_t simd64_run(int forward, uint64_t* a, Py_ssize_t half, Py_ssize_t j0,
                                  Py_ssize_t j1, const Twiddles* tw,
                                  const Tables* t) noexcept nogil:
    cdef ntt64_params prm = simd64_params(&t.mod, t.family)
    cdef const uint64_t* twq = <const uint64_t*>tw.q
    return ntt64_run(forward, a + j0, a + half + j0, <const uint64_t*>tw.w + half + j0,
                     twq + half + j0 if twq != NULL else NULL,
                     offset(tw.f, half + j0), offset(tw.fq, half + j0), j1 - j0, &prm)


cdef inline bint simd_small_stages(int forward, lane_t* a, Py_ssize_t size, const Tables* t,
                                   const Twiddles* tw, bint tiled) noexcept nogil:
    cdef ntt64_params prm
    # The last (DIF) or first (DIT) stages of half-length <= small_half in registers,
    # every family and lane width, in AVX-512 and AVX2 builds (uint64 LAZY on AVX2 in
    # double precision where the plan built tw.f).  tiled (uint32, see tiled_order): in
    # padded_product's tiled order.
    if lane_t is uint32_t:
        if tiled:
            return ntt32_small_stages_tiled(forward, a, size, <const uint32_t*>tw.w,
                                            <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                                            <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                            t.family)
        return ntt32_small_stages(forward, a, size, <const uint32_t*>tw.w,
                                  <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                                  <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family)
    else:
        prm = simd64_params(&t.mod, t.family)
        return ntt64_small_stages(forward, a, size, <const uint64_t*>tw.w,
                                  <const uint64_t*>tw.q, tw.f, tw.fq, &prm)


cdef inline bint takes_goldilocks_stages(lane_t* a, Py_ssize_t half, const Tables* t,
                                         const Twiddles* tw) noexcept nogil:
    # Whether simd_goldilocks_stages takes blocks of 2 half: GOLDILOCKS tables with
    # their group tables (vector builds only: the plan builds them where
    # goldilocks_groups_length says), blocks from GL_GROUP_MIN values to the largest
    # the group tables serve (their entry 0).
    if lane_t is uint64_t:
        return (t.family == GOLDILOCKS and tw.q != NULL and 2 * half >= GL_GROUP_MIN
                and <uint64_t>(2 * half) <= (<const uint64_t*>tw.q)[0])
    else:
        return False


cdef inline bint simd_goldilocks_stages(int forward, lane_t* a, Py_ssize_t size,
                                        Py_ssize_t half, const Tables* t,
                                        const Twiddles* tw) noexcept nogil:
    # GOLDILOCKS (uint64 lanes, vector builds): every stage half, half/2, .., 1 of
    # a[0:size] by radix-64 groups, most twiddles shifts (simd/ntt64/goldilocks.h),
    # with the group tables the plan keeps in tw.q; False where not taken.
    cdef ntt64_params prm
    if lane_t is uint64_t:
        if not takes_goldilocks_stages(a, half, t, tw):
            return False
        prm = simd64_params(&t.mod, t.family)
        return ntt64_goldilocks_stages(forward, a, size, half, <const uint64_t*>tw.w,
                                       <const uint64_t*>tw.q, &prm) != 0
    else:
        return False


cdef inline Py_ssize_t small_half(lane_t* a) noexcept nogil:
    # Largest half-length simd_small_stages covers: 16 uint32 / 8 uint64 per vector.
    if lane_t is uint32_t:
        return 8
    else:
        return 4


cdef inline void dif_run(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                         const Tables* t) noexcept nogil:
    # Butterflies j0 <= j < j1 of the block starting at a, half-length `half`.
    cdef const lane_t* w = <const lane_t*>t.fwd.w + half
    if lane_t is uint32_t:
        j0 += simd32_run(1, a, half, j0, j1, &t.fwd, t, False)
    else:
        j0 += simd64_run(1, a, half, j0, j1, &t.fwd, t)
    if lane_t is uint32_t:
        if runs_shoup31(t):
            dif_run_shoup31(a + j0, a + half + j0, w + j0,
                            <const uint32_t*>t.fwd.q + half + j0, j1 - j0, &t.mod)
            return
    if t.family == LAZY:
        dif_run_lazy(a + j0, a + half + j0, w + j0,
                     <const lane_t*>t.fwd.q + half + j0, j1 - j0, &t.mod)
    else:
        dif_run_exact(a + j0, a + half + j0, w + j0, j1 - j0, &t.mod, t.family)


cdef inline void dit_run(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                         const Tables* t, const Twiddles* tw) noexcept nogil:
    # As dif_run, for the DIT butterfly with stage twiddles tw: the inverse twiddles
    # give the inverse transform, the forward ones the forward transform from
    # bit-reversed input.
    cdef const lane_t* w = <const lane_t*>tw.w + half
    if lane_t is uint32_t:
        j0 += simd32_run(0, a, half, j0, j1, tw, t, False)
    else:
        j0 += simd64_run(0, a, half, j0, j1, tw, t)
    if lane_t is uint32_t:
        if runs_shoup31(t):
            dit_run_shoup31(a + j0, a + half + j0, w + j0,
                            <const uint32_t*>tw.q + half + j0, j1 - j0, &t.mod)
            return
    if t.family == LAZY:
        dit_run_lazy(a + j0, a + half + j0, w + j0,
                     <const lane_t*>tw.q + half + j0, j1 - j0, &t.mod)
    else:
        dit_run_exact(a + j0, a + half + j0, w + j0, j1 - j0, &t.mod, t.family)


cdef inline Py_ssize_t simd_run4(int forward, lane_t* a, Py_ssize_t half, Py_ssize_t j0,
                                 Py_ssize_t j1, const Tables* t, const Twiddles* tw,
                                 bint from_q) noexcept nogil:
    # Vector radix-4 groups j0 <= j < (returned count) of ntt32_run4 / run4; from_q
    # (uint32 lanes): see ntt32_run4.
    cdef ntt64_params prm
    if lane_t is uint32_t:
        return ntt32_run4(forward, a, half, j0, j1, <const uint32_t*>tw.w,
                          <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                          <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family, from_q)
    else:
        prm = simd64_params(&t.mod, t.family)
        return ntt64_run4(forward, a, half, j0, j1, <const uint64_t*>tw.w,
                          <const uint64_t*>tw.q, tw.f, tw.fq, &prm)


cdef inline void dif_run4(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                          const Tables* t) noexcept nogil:
    # DIF stages `half` and `half/2` on the block a[0:2*half], groups j0 <= j < j1
    # of [0, half/2) (see ntt32_run4): vector radix-4 where available, the
    # same butterflies as two radix-2 runs otherwise.
    cdef Py_ssize_t q = half >> 1
    j0 += simd_run4(1, a, half, j0, j1, t, &t.fwd, False)
    if j0 < j1:
        dif_run(a, half, j0, j1, t)
        dif_run(a, half, q + j0, q + j1, t)
        dif_run(a, q, j0, j1, t)
        dif_run(a + half, q, j0, j1, t)


cdef inline void dit_run4(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                          const Tables* t, const Twiddles* tw) noexcept nogil:
    # DIT stages `half/2` then `half` on a[0:2*half], groups j0 <= j < j1 of [0, half/2).
    cdef Py_ssize_t q = half >> 1
    j0 += simd_run4(0, a, half, j0, j1, t, tw, False)
    if j0 < j1:
        dit_run(a, q, j0, j1, t, tw)
        dit_run(a + half, q, j0, j1, t, tw)
        dit_run(a, half, j0, j1, t, tw)
        dit_run(a, half, q + j0, q + j1, t, tw)


cdef inline Py_ssize_t split(Py_ssize_t count, int part, int parts) noexcept nogil:
    # Start of part `part` of range(count) cut in `parts`, on a multiple of 16 so
    # every part but the last keeps whole vectors.
    if part >= parts:
        return count
    return (count * part // parts) & ~(<Py_ssize_t>15)
