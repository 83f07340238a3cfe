dtrace -xerrtags -s keyword_as_variable.d
