dtrace -xerrtags -s reserved_keyword.d
