dtrace -s macro_args.d 7 41
