dtrace -xerrtags -s decl_useless.d
