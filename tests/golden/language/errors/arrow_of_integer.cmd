dtrace -xerrtags -s arrow_of_integer.d
