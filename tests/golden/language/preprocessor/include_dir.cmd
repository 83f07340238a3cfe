dtrace -C -I$DIR/include -s include_dir.d
