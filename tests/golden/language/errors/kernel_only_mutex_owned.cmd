dtrace -xerrtags -s kernel_only_mutex_owned.d
