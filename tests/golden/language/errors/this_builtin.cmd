dtrace -xerrtags -s this_builtin.d
