dtrace -C -s define_macro_args.d
