dtrace -xerrtags -s ident_undef.d
