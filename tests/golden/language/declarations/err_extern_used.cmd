dtrace -xerrtags -s err_extern_used.d
