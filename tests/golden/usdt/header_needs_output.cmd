dtrace -h -s header.d -s header_default_name.d
