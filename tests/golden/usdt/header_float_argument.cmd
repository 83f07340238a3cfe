dtrace -h -s header_float_argument.d -o /dev/null
