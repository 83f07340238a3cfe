dtrace -xerrtags -s args_none.d
