# The kernel sources every build compiles, in order (Cython `include` is textual: each
# build_<isa>.pyx is this one source compiled with its ISA's flags, see setup.py, and
# ntt_cy._support.isa picks one build at import).
include "ntt/externs.pxi"
include "ntt/interrupts.pxi"
include "ntt/types.pxi"
include "ntt/butterflies.pxi"
include "ntt/schedules.pxi"
include "ntt/columns.pxi"
include "ntt/passes.pxi"
include "ntt/permute.pxi"
include "ntt/rows.pxi"
include "ntt/entry.pxi"
include "ntt/row_calls.pxi"
include "ntt/products.pxi"
include "ntt/tables.pxi"
include "ntt/pointwise.pxi"
include "crt/garner_rows.pxi"
