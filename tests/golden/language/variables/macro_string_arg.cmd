dtrace -s macro_string_arg.d hello
