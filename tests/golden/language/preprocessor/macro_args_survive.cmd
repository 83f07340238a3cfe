dtrace -C -s macro_args_survive.d 21
