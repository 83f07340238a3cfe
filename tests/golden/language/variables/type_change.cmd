dtrace -xerrtags -s type_change.d
