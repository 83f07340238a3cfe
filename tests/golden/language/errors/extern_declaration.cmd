dtrace -xerrtags -s extern_declaration.d
