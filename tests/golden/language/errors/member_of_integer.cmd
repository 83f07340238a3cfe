dtrace -xerrtags -s member_of_integer.d
