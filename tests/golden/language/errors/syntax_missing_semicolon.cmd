dtrace -xerrtags -s syntax_missing_semicolon.d
