dtrace -xerrtags -s pragma_unused.d
