# The OpenMP thread count every kernel entry point takes.  The Python layer passes
# resolve_workers' count (1 .. ntt_cy._support.threads.MAX_WORKERS = 1024); any other count
# from a direct call would divide by zero (chunk_size) or ask OpenMP for that many
# threads (libgomp: a segfault or a terabyte allocation).


cdef inline int check_threads(int threads) except -1:
    if threads < 1 or threads > 1024:
        raise ValueError(f"internal: thread count {threads} outside 1..1024")
    return 0
