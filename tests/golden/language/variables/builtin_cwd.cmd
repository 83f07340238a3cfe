sh -c 'cd / && dtrace -s $DIR/builtin_cwd.d'
