dtrace -xerrtags -s addrof_global_struct.d
