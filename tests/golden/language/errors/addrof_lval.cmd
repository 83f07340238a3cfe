dtrace -xerrtags -s addrof_lval.d
