// The list of kernels and the block-program runner shared by ntt.cu (device) and the host
// harness (tests/cuda/host_harness.cpp), so the GPU and the host run the same code.
//
// A block program P has
//   P(const Args& args, u64 block)             per-block set-up
//   u32 phases() const                         number of phases
//   void run(u32 phase, u32 tid, u32 nthreads, void* smem) const
// Threads run each phase, then synchronise (__syncthreads on the device); within a phase
// threads never touch an element another thread touches.  The host harness runs the
// threads of a phase one after another (in several orders, to catch order dependence).
//
// NTT_CY_KERNELS(X) calls X(name, Args, Program) for every extern "C" kernel; kernel names
// are mirrored by ntt_cy/cuda/abi.py.
#pragma once

#include "transform_pass.cuh"
#include "twiddles.cuh"
#include "bitrev.cuh"
#include "crt.cuh"

#define NTT_CY_TRANSFORM_KERNELS(X, W)                                           \
    X(ntt_fwd_##W##_montgomery, NttArgs, TransformPass<Montgomery<W>, false>)   \
    X(ntt_inv_##W##_montgomery, NttArgs, TransformPass<Montgomery<W>, true>)    \
    X(ntt_fwd_##W##_barrett, NttArgs, TransformPass<Barrett<W>, false>)         \
    X(ntt_inv_##W##_barrett, NttArgs, TransformPass<Barrett<W>, true>)          \
    X(ntt_fwd_##W##_lazy, NttArgs, TransformPass<Lazy<W>, false>)               \
    X(ntt_inv_##W##_lazy, NttArgs, TransformPass<Lazy<W>, true>)                \
    X(ntt_twiddles_##W##_montgomery, NttArgs, TwiddleTable<Montgomery<W> >)     \
    X(ntt_twiddles_##W##_barrett, NttArgs, TwiddleTable<Barrett<W> >)           \
    X(ntt_twiddles_##W##_lazy, NttArgs, TwiddleTable<Lazy<W> >)                 \
    X(ntt_bitrev_tiled_##W, NttArgs, BitrevTiled<W>)                            \
    X(ntt_bitrev_naive_##W, NttArgs, BitrevNaive<W>)

#define NTT_CY_KERNELS(X)                               \
    NTT_CY_TRANSFORM_KERNELS(X, u32)                    \
    NTT_CY_TRANSFORM_KERNELS(X, u64)                    \
    X(crt_load_u32_u32, CrtArgs, CrtLoad<u32, u32>)     \
    X(crt_load_u64_u32, CrtArgs, CrtLoad<u64, u32>)     \
    X(crt_load_u32_u64, CrtArgs, CrtLoad<u32, u64>)     \
    X(crt_load_u64_u64, CrtArgs, CrtLoad<u64, u64>)     \
    X(crt_garner_u32_u32, CrtArgs, CrtGarner<u32, u32>) \
    X(crt_garner_u32_u64, CrtArgs, CrtGarner<u32, u64>) \
    X(crt_garner_u64_u64, CrtArgs, CrtGarner<u64, u64>)

#ifdef __CUDACC__
namespace nttcy {

// Runs one block of program P; dynamic shared memory is 8-byte aligned.
template <class P, class Args>
__device__ __forceinline__ void run_block_on_device(const Args& args)
{
    extern __shared__ u64 ntt_cy_shared[];
    const P prog(args, (u64)blockIdx.x);
    const u32 phases = prog.phases();
    for (u32 ph = 0; ph < phases; ++ph) {
        if (ph) __syncthreads();
        prog.run(ph, threadIdx.x, blockDim.x, ntt_cy_shared);
    }
}

}  // namespace nttcy
#endif
