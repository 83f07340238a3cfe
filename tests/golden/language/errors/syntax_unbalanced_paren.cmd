dtrace -xerrtags -s syntax_unbalanced_paren.d
