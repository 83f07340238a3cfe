dtrace -s macro_target.d -c true
