dtrace -xerrtags -s bitnot_string.d
