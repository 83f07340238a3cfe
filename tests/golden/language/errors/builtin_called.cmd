dtrace -xerrtags -s builtin_called.d
