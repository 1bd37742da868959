"""The kernel build chosen by ntt_cy._support.isa, under one stable name.

Everything outside ntt_cy/_support/isa.py imports kernels from here, so tables built by one
build are always consumed by the same build.
"""
import numpy as np

from ntt_cy._support.isa import ACTIVE_ISA, kernels

FAMILY_CODES = kernels.FAMILY_CODES
TransformTables = kernels.TransformTables
forward = kernels.forward
forward_padded = kernels.forward_padded
transform_row = kernels.transform_row
plan_row_call = kernels.plan_row_call
cached_row_call = kernels.cached_row_call
cached_product_call = kernels.cached_product_call
ROW_CALL_BELOW_N = kernels.ROW_CALL_BELOW_N
inverse = kernels.inverse
narrow_to_u32 = kernels.narrow_to_u32
pointwise_mul = kernels.pointwise_mul
pointwise_inverse = kernels.pointwise_inverse
padded_product = kernels.padded_product
SingleRowProduct = kernels.SingleRowProduct
SingleRowWrapped = kernels.SingleRowWrapped
powers = kernels.powers
stage_twiddles = kernels.stage_twiddles
to_montgomery = kernels.to_montgomery
montgomery_bits = kernels.montgomery_bits
float_twiddles = kernels.float_twiddles
shoup_quotients = kernels.shoup_quotients
goldilocks_groups_length = kernels.goldilocks_groups_length
goldilocks_groups = kernels.goldilocks_groups
garner32_mod = kernels.garner32_mod
CRTProduct32 = kernels.CRTProduct32
PaddedProducts = kernels.PaddedProducts
SingleRowCRT = kernels.SingleRowCRT
garner32_mod64 = kernels.garner32_mod64
garner32_digits = kernels.garner32_digits

# The uint32 / uint64 specialisations of the transforms, by lane dtype and direction
# (TRANSFORMS[dtype][is_forward]): a call through the fused function first picks one
# from its arguments' types, ~0.25 us of a small transform's ~7 us call.
TRANSFORMS = {np.dtype(np.uint32): (inverse["uint32_t"], forward["uint32_t"]),
              np.dtype(np.uint64): (inverse["uint64_t"], forward["uint64_t"])}

__all__ = ["ACTIVE_ISA", "TRANSFORMS", "FAMILY_CODES", "TransformTables", "forward",
           "forward_padded", "transform_row", "plan_row_call", "cached_row_call",
           "cached_product_call", "inverse", "pointwise_mul", "pointwise_inverse",
           "padded_product", "SingleRowProduct", "SingleRowWrapped",
           "powers", "stage_twiddles", "to_montgomery", "montgomery_bits", "float_twiddles",
           "shoup_quotients", "garner32_mod", "CRTProduct32", "PaddedProducts", "SingleRowCRT",
           "garner32_mod64", "garner32_digits"]
