dtrace -C -s pragma_survives.d
