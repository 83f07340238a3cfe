dtrace -xerrtags -s err_extern_called.d
