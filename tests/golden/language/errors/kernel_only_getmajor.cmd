dtrace -xerrtags -s kernel_only_getmajor.d
