dtrace -xerrtags -s decl_idred.d
