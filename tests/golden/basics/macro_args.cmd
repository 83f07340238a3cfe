dtrace -q -s $DIR/macro_args.d 42 hello
