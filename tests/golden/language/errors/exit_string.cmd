dtrace -xerrtags -s exit_string.d
