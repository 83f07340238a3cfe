dtrace -xerrtags -s symbol_unknown.d
