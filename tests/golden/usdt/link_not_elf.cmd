dtrace -G -s header_default_name.d -o /dev/null header.d
