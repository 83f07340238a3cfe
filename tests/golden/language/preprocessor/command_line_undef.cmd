dtrace -C -U__SUNW_D -s command_line_undef.d
