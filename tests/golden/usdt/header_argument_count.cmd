dtrace -h -s header_argument_count.d -o /dev/null
