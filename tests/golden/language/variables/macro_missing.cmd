dtrace -xerrtags -s macro_missing.d
