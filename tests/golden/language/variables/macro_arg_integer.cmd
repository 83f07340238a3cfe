dtrace -s macro_arg_integer.d 0x10
