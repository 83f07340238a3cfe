dtrace -C -DVALUE=17 -s command_line_define.d
