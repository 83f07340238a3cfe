dtrace -xerrtags -s args_string_index.d
