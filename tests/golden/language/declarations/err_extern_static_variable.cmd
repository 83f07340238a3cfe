dtrace -xerrtags -s err_extern_static_variable.d
