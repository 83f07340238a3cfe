dtrace -xerrtags -s sizeof_void.d
