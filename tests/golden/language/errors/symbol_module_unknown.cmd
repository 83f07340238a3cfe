dtrace -xerrtags -s symbol_module_unknown.d
