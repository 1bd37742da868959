"""The kernel build chosen by ntt_cy._isa, under one stable name.

Everything outside _isa.py imports kernels from here, so tables built by one
build are always consumed by the same build.
"""
from ntt_cy._isa import ACTIVE_ISA, kernels

FAMILY_CODES = kernels.FAMILY_CODES
TransformTables = kernels.TransformTables
forward = kernels.forward
forward_padded = kernels.forward_padded
inverse = kernels.inverse
pointwise_mul = kernels.pointwise_mul
pointwise_inverse = kernels.pointwise_inverse
padded_product = kernels.padded_product
powers = kernels.powers
stage_twiddles = kernels.stage_twiddles
to_montgomery = kernels.to_montgomery
montgomery_bits = kernels.montgomery_bits
float_twiddles = kernels.float_twiddles
shoup_quotients = kernels.shoup_quotients
garner32_mod = kernels.garner32_mod

__all__ = ["ACTIVE_ISA", "FAMILY_CODES", "TransformTables", "forward", "forward_padded", "inverse",
           "pointwise_mul", "pointwise_inverse", "padded_product", "powers", "stage_twiddles", "to_montgomery",
           "montgomery_bits", "float_twiddles", "shoup_quotients",
           "garner32_mod"]
