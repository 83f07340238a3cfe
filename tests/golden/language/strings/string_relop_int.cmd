dtrace -xerrtags -s string_relop_int.d
