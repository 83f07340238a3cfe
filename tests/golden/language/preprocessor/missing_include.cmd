dtrace -C -s missing_include.d
