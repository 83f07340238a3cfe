dtrace -xerrtags -s macro_unused.d one two
