# Interrupts: how one long kernel call answers a signal (Ctrl-C) while it runs.
#
# A kernel call runs without the GIL, and Python runs signal handlers only between
# bytecodes, so a call that transforms or multiplies one long row (2^24 values and up
# take from a tenth of a second to seconds) looks for signals by itself.  The entry
# points give such a call an Interrupt, in a copy of the plan's tables (Tables.irq;
# the plan's own tables have none).  The calling thread (part 0 of an OpenMP team)
# polls at most once per POLL_NS: it takes the GIL and runs the pending handlers
# (PyErr_CheckSignals).  When a handler raised, it sets `stop`; from then on every
# thread skips what work is left piece by piece (a piece is at most about a chunk of
# butterflies), while still meeting the team at every barrier, so the control flow
# never differs between threads.  The entry point then returns with the handler's
# exception (KeyboardInterrupt) set: the output holds partly transformed values, and
# the input is untouched unless it is the output (in place).

cdef extern from *:
    """
    #include <time.h>
    /* One call's interrupt state: `stop` is written by the polling thread and read by
       every thread of the call's team (relaxed atomics: a late read costs one more
       piece of work, never a wrong control flow, see interrupts.pxi). */
    typedef struct { long long next_ns; int stop; } ntt_cy_interrupt;

    static inline long long ntt_cy_now_ns(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
    }
    static inline int ntt_cy_stop_seen(const ntt_cy_interrupt* irq) {
        return __atomic_load_n(&irq->stop, __ATOMIC_RELAXED);
    }
    static inline void ntt_cy_stop_set(ntt_cy_interrupt* irq) {
        __atomic_store_n(&irq->stop, 1, __ATOMIC_RELAXED);
    }
    """
    ctypedef struct Interrupt "ntt_cy_interrupt":
        long long next_ns   # monotonic time of the next poll
        int stop            # set once a signal handler raised
    long long ntt_cy_now_ns() noexcept nogil
    int ntt_cy_stop_seen(const Interrupt* irq) noexcept nogil
    void ntt_cy_stop_set(Interrupt* irq) noexcept nogil

cdef extern from "Python.h":
    # PyErr_CheckSignals without Cython's error check: a raised handler's exception is
    # left set for the entry point to return with (see interrupt_raised).
    int run_signal_handlers "PyErr_CheckSignals" () noexcept

cdef enum:
    # The longest time between two polls (ns): ~10 ms, so that a signal is answered
    # within about a poll plus a piece of work, and a poll (a GIL round trip, ~1 us)
    # costs nothing measurable.
    POLL_NS = 10000000
    # Butterfly groups per piece of a large pass when its call can be interrupted: a
    # piece is 2^14 groups of 2 or 4 values, tens of microseconds of work.
    POLL_PIECE = 16384


cdef inline void interrupt_start(Interrupt* irq) noexcept nogil:
    # A call's Interrupt before its kernels run: the first poll after POLL_NS.
    irq.stop = 0
    irq.next_ns = ntt_cy_now_ns() + POLL_NS


cdef inline bint stopping(Interrupt* irq, int part) noexcept nogil:
    # Whether the call is to stop (skip the rest of its work).  Part 0, the calling
    # thread, first polls for signals when POLL_NS has passed since its last poll.
    # The answer may differ between threads for a while: callers only skip work on it,
    # never a barrier.  NULL (no Interrupt): never.
    cdef long long now
    if irq == NULL:
        return False
    if part == 0 and not ntt_cy_stop_seen(irq):
        now = ntt_cy_now_ns()
        if now >= irq.next_ns:
            irq.next_ns = now + POLL_NS
            with gil:
                if run_signal_handlers() != 0:
                    ntt_cy_stop_set(irq)
    return ntt_cy_stop_seen(irq) != 0


cdef inline int interrupt_raised() except -1:
    # For an entry point whose kernels stopped: return with the exception the signal
    # handler raised (still set, see run_signal_handlers).
    return -1
