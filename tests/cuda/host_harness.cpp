// Host harness for the ntt_cy CUDA code: compiles the __host__ __device__ headers of
// ntt_cy/cuda with a plain C++ compiler and exposes them to Python (ctypes).
//
//   g++ -O2 -std=c++17 -shared -fPIC -I ntt_cy/cuda tests/cuda/host_harness.cpp -o harness.so
//
// Two kinds of entry points:
//   t_*      element-wise wrappers of the arithmetic helpers and butterflies, for checking
//            them against Python integers at the edges of their ranges;
//   emu_*    one per extern "C" kernel of ntt.cu (same NTT_CY_KERNELS list): runs a whole
//            launch (grid x block) serially on the host with the device code's block
//            programs, so launch sequences built by ntt_cy/cuda/schedule.py can be executed
//            without a GPU.  Pointers in the argument records are host addresses.
// Used by tests/test_cuda_host.py.
#include <cstddef>
#include <cstring>
#include <vector>

#include "kernels.cuh"

using namespace nttcy;

// ---------------------------------------------------------------------------------------
// Kernel emulation.
// ---------------------------------------------------------------------------------------

namespace {

// Thread order within a phase: 0 ascending, 1 descending, otherwise a pseudo-random
// permutation drawn per phase.  Results must not depend on it.
void thread_order(std::vector<u32>& ids, u32 order, u64& state)
{
    const u32 n = (u32)ids.size();
    for (u32 i = 0; i < n; ++i) ids[i] = order == 1 ? n - 1 - i : i;
    if (order >= 2) {
        for (u32 i = n; i > 1; --i) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            const u32 j = (u32)(state % i);
            const u32 t = ids[i - 1];
            ids[i - 1] = ids[j];
            ids[j] = t;
        }
    }
}

const unsigned char GUARD = 0xA5;
const size_t GUARD_BYTES = 64;

// Returns 0 on success, 2 if a block wrote past its dynamic shared memory.
template <class P, class Args>
int emulate(const Args& args, u64 grid, u32 block, u32 shared, u32 order)
{
    std::vector<u64> words((shared + GUARD_BYTES + 7) / 8);
    unsigned char* smem = (unsigned char*)words.data();
    std::vector<u32> ids(block);
    u64 state = 0x9E3779B97F4A7C15ull ^ order;
    for (u64 b = 0; b < grid; ++b) {
        // Shared memory starts as garbage on a GPU: poison it, and guard its end.
        std::memset(smem, 0xCD, shared);
        std::memset(smem + shared, GUARD, GUARD_BYTES);
        const P prog(args, b);
        const u32 phases = prog.phases();
        for (u32 ph = 0; ph < phases; ++ph) {
            thread_order(ids, order, state);
            for (u32 i = 0; i < block; ++i) prog.run(ph, ids[i], block, smem);
        }
        for (size_t i = 0; i < GUARD_BYTES; ++i)
            if (smem[shared + i] != GUARD) return 2;
    }
    return 0;
}

}  // namespace

#define NTT_CY_DEFINE_EMULATOR(name, Args, ...)                                          \
    extern "C" int emu_##name(const Args* args, u64 grid, u32 block, u32 shared, u32 order) \
    {                                                                                    \
        return emulate<__VA_ARGS__>(*args, grid, block, shared, order);                  \
    }

NTT_CY_KERNELS(NTT_CY_DEFINE_EMULATOR)

// ---------------------------------------------------------------------------------------
// Layout of the argument records (checked against ntt_cy/cuda/abi.py).
// ---------------------------------------------------------------------------------------

struct FieldOffset {
    const char* name;
    size_t offset;
};

#define NTT_FIELD(f) {#f, offsetof(NttArgs, f)},
#define CRT_FIELD(f) {#f, offsetof(CrtArgs, f)},

static const FieldOffset ntt_fields[] = {
    NTT_FIELD(src) NTT_FIELD(src2) NTT_FIELD(dst) NTT_FIELD(tw) NTT_FIELD(twq) NTT_FIELD(flag)
    NTT_FIELD(p) NTT_FIELD(pinv) NTT_FIELD(mu) NTT_FIELD(norm) NTT_FIELD(r_mod_p) NTT_FIELD(n)
    NTT_FIELD(log_n) NTT_FIELD(stage0) NTT_FIELD(log_rows) NTT_FIELD(log_cols) NTT_FIELD(ntiles)
    NTT_FIELD(per_block) NTT_FIELD(flags) NTT_FIELD(root) NTT_FIELD(ninv)
    {nullptr, sizeof(NttArgs)}};

static const FieldOffset crt_fields[] = {
    CRT_FIELD(src) CRT_FIELD(dst) CRT_FIELD(count) CRT_FIELD(per_block)
    CRT_FIELD(len_in) CRT_FIELD(log_row_len) CRT_FIELD(region) CRT_FIELD(lin_len)
    CRT_FIELD(out_len) CRT_FIELD(fold) CRT_FIELD(k) CRT_FIELD(m) CRT_FIELD(m_norm)
    CRT_FIELD(m_dinv) CRT_FIELD(prime) CRT_FIELD(prime_norm) CRT_FIELD(prime_dinv)
    CRT_FIELD(prefix) CRT_FIELD(inv)
    {nullptr, sizeof(CrtArgs)}};

// Offset of field `name` of record `which` (0: NttArgs, 1: CrtArgs); name == NULL gives the
// record size; -1 for an unknown name.
extern "C" long record_offset(int which, const char* name)
{
    for (const FieldOffset* f = which ? crt_fields : ntt_fields;; ++f) {
        if (!f->name) return name ? -1 : (long)f->offset;
        if (name && std::strcmp(f->name, name) == 0) return (long)f->offset;
    }
}

// ---------------------------------------------------------------------------------------
// Element-wise wrappers of the arithmetic helpers.
// ---------------------------------------------------------------------------------------

#define T_LOOP for (u64 i = 0; i < count; ++i)

extern "C" {

void t_mulhi32(const u32* a, const u32* b, u32* out, u64 count) { T_LOOP out[i] = mulhi(a[i], b[i]); }
void t_mulhi64(const u64* a, const u64* b, u64* out, u64 count) { T_LOOP out[i] = mulhi(a[i], b[i]); }

void t_add_mod32(const u32* a, const u32* b, u32* out, u64 count, u32 p) { T_LOOP out[i] = add_mod(a[i], b[i], p); }
void t_add_mod64(const u64* a, const u64* b, u64* out, u64 count, u64 p) { T_LOOP out[i] = add_mod(a[i], b[i], p); }
void t_sub_mod32(const u32* a, const u32* b, u32* out, u64 count, u32 p) { T_LOOP out[i] = sub_mod(a[i], b[i], p); }
void t_sub_mod64(const u64* a, const u64* b, u64* out, u64 count, u64 p) { T_LOOP out[i] = sub_mod(a[i], b[i], p); }

void t_reduce_2p32(const u32* a, u32* out, u64 count, u32 p) { T_LOOP out[i] = reduce_2p(a[i], p); }
void t_reduce_2p64(const u64* a, u64* out, u64 count, u64 p) { T_LOOP out[i] = reduce_2p(a[i], p); }
void t_reduce_4p32(const u32* a, u32* out, u64 count, u32 p) { T_LOOP out[i] = reduce_4p(a[i], p); }
void t_reduce_4p64(const u64* a, u64* out, u64 count, u64 p) { T_LOOP out[i] = reduce_4p(a[i], p); }

static Mod32 mod32(u32 p, u64 mu)
{
    Mod32 m;
    m.p = p;
    m.mu = mu;
    return m;
}

void t_reduce_u64_32(const u64* x, u32* out, u64 count, u32 p, u64 mu) { T_LOOP out[i] = reduce_u64(x[i], mod32(p, mu)); }
void t_mul_mod32(const u32* a, const u32* b, u32* out, u64 count, u32 p, u64 mu) { T_LOOP out[i] = mul_mod(a[i], b[i], mod32(p, mu)); }
void t_pow_mod32(const u32* a, const u64* e, u32* out, u64 count, u32 p, u64 mu) { T_LOOP out[i] = pow_mod(a[i], e[i], mod32(p, mu)); }
void t_shoup_precompute32(const u32* w, u32* out, u64 count, u32 p, u64 mu) { T_LOOP out[i] = shoup_precompute(w[i], mod32(p, mu)); }

void t_divrem64(const u64* hi, const u64* lo, u64* quot, u64* rem, u64 count, u64 d, u64 dinv)
{
    T_LOOP rem[i] = divrem_preinv(hi[i], lo[i], d, dinv, &quot[i]);
}
void t_reduce_u64_64(const u64* x, u64* out, u64 count, u64 p, u64 dinv, u32 norm) { T_LOOP out[i] = reduce_u64(x[i], make_mod64(p, dinv, norm)); }
void t_mul_mod64(const u64* a, const u64* b, u64* out, u64 count, u64 p, u64 dinv, u32 norm) { T_LOOP out[i] = mul_mod(a[i], b[i], make_mod64(p, dinv, norm)); }
void t_pow_mod64(const u64* a, const u64* e, u64* out, u64 count, u64 p, u64 dinv, u32 norm) { T_LOOP out[i] = pow_mod(a[i], e[i], make_mod64(p, dinv, norm)); }
void t_shoup_precompute64(const u64* w, u64* out, u64 count, u64 p, u64 dinv, u32 norm) { T_LOOP out[i] = shoup_precompute(w[i], make_mod64(p, dinv, norm)); }

void t_mont_mul32(const u32* a, const u32* b, u32* out, u64 count, u32 p, u32 pinv) { T_LOOP out[i] = mont_mul(a[i], b[i], p, pinv); }
void t_mont_mul64(const u64* a, const u64* b, u64* out, u64 count, u64 p, u64 pinv) { T_LOOP out[i] = mont_mul(a[i], b[i], p, pinv); }
void t_shoup_mul_lazy32(const u32* x, const u32* w, const u32* wq, u32* out, u64 count, u32 p) { T_LOOP out[i] = shoup_mul_lazy(x[i], w[i], wq[i], p); }
void t_shoup_mul_lazy64(const u64* x, const u64* w, const u64* wq, u64* out, u64 count, u64 p) { T_LOOP out[i] = shoup_mul_lazy(x[i], w[i], wq[i], p); }

void t_bit_reverse(const u32* x, const u32* bits, u32* out, u64 count) { T_LOOP out[i] = bit_reverse(x[i], bits[i]); }

}  // extern "C"

// Butterflies of family F on arrays.  mode 0: fwd(x, y, t), 1: inv(x, y, t),
// 2: inv_scaled(x, y, t, t2), 3: x = finish_fwd(x), 4: x = finish_inv(x).
// t (t2) is table entry i of (tw, twq) ((tw2, twq2)); twq arrays are ignored except by Lazy.
template <class F>
void butterflies(const NttArgs* a, typename F::Word* x, typename F::Word* y,
                 const typename F::Word* tw, const typename F::Word* twq,
                 const typename F::Word* tw2, const typename F::Word* twq2, u64 count, u32 mode)
{
    const F fam(*a);
    T_LOOP {
        switch (mode) {
        case 0: fam.fwd(x[i], y[i], fam.twiddle(tw, twq, i)); break;
        case 1: fam.inv(x[i], y[i], fam.twiddle(tw, twq, i)); break;
        case 2: fam.inv_scaled(x[i], y[i], fam.twiddle(tw, twq, i), fam.twiddle(tw2, twq2, i)); break;
        case 3: x[i] = fam.finish_fwd(x[i]); break;
        default: x[i] = fam.finish_inv(x[i]); break;
        }
    }
}

#define T_BUTTERFLIES(name, F)                                                              \
    extern "C" void name(const NttArgs* a, F::Word* x, F::Word* y, const F::Word* tw,        \
                         const F::Word* twq, const F::Word* tw2, const F::Word* twq2, u64 count, \
                         u32 mode)                                                          \
    {                                                                                       \
        butterflies<F>(a, x, y, tw, twq, tw2, twq2, count, mode);                           \
    }

T_BUTTERFLIES(t_bfly_u32_montgomery, Montgomery<u32>)
T_BUTTERFLIES(t_bfly_u64_montgomery, Montgomery<u64>)
T_BUTTERFLIES(t_bfly_u32_barrett, Barrett<u32>)
T_BUTTERFLIES(t_bfly_u64_barrett, Barrett<u64>)
T_BUTTERFLIES(t_bfly_u32_lazy, Lazy<u32>)
T_BUTTERFLIES(t_bfly_u64_lazy, Lazy<u64>)
