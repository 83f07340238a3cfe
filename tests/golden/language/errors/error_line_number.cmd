dtrace -xerrtags -s error_line_number.d
