dtrace -xerrtags -s undefined_ident_script.d
