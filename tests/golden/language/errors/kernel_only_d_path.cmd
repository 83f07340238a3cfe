dtrace -xerrtags -s kernel_only_d_path.d
