dtrace -xerrtags -s strlen_args.d
