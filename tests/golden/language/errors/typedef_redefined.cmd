dtrace -xerrtags -s typedef_redefined.d
