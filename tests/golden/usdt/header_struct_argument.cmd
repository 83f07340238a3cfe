dtrace -h -s header_struct_argument.d -o /dev/null
