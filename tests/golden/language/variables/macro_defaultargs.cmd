dtrace -x defaultargs -s macro_defaultargs.d
