dtrace -xerrtags -s deref_integer.d
