dtrace -xerrtags -s err_predicate.d
