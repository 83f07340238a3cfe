dtrace -xerrtags -s addrof_var.d
