dtrace -xerrtags -s macro_arg_not_integer.d hello
