dtrace -C -s ifdef_false.d
