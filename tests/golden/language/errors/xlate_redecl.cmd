dtrace -xerrtags -s xlate_redecl.d
