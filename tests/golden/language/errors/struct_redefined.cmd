dtrace -xerrtags -s struct_redefined.d
