dtrace -xerrtags -s error_in_second_clause.d
