dtrace -x errtags -s err_depends_on_provider.d
