dtrace -xerrtags -s function_as_value.d
