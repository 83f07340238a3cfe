dtrace -C -s include_quoted.d
