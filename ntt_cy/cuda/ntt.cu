// ntt_cy CUDA kernels: one extern "C" kernel per (program, lane width, family), each taking
// its argument record by value (see args.cuh; mirrored by abi.py).  The arithmetic and the
// per-thread work are __host__ __device__ code in the headers, tested on the host.
//
// Build ahead of time (loaded in preference to runtime compilation when its stamp matches):
//     python -m ntt_cy.cuda.build            # ntt.fatbin for sm_80 and sm_90 + PTX
// or compiled at first use through pycuda.compiler.SourceModule (cached by PyCUDA).
#include "kernels.cuh"

using namespace nttcy;

#define NTT_CY_DEFINE_KERNEL(name, Args, ...)                  \
    extern "C" __global__ void __launch_bounds__(512)          \
    name(const __grid_constant__ Args args)                    \
    {                                                          \
        run_block_on_device<__VA_ARGS__>(args);                \
    }

NTT_CY_KERNELS(NTT_CY_DEFINE_KERNEL)
