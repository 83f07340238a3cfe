dtrace -C -D DEBUG -s command_line_define_flag.d
