dtrace -xerrtags -s void_variable.d
