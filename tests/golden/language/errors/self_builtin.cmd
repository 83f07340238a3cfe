dtrace -xerrtags -s self_builtin.d
