dtrace -xerrtags -s kernel_only_msgsize.d
