dtrace -x strsize=64 -s sizeof_string_option.d
