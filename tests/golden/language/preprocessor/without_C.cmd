dtrace -xerrtags -s without_C.d
