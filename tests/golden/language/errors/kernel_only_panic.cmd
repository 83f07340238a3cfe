dtrace -w -xerrtags -s kernel_only_panic.d
