dtrace -xerrtags -s err_infer_assign.d
