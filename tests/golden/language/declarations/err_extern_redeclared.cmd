dtrace -xerrtags -s err_extern_redeclared.d
