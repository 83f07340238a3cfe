dtrace -C -xerrtags -s interpreter_line.d
