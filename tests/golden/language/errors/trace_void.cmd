dtrace -xerrtags -s trace_void.d
