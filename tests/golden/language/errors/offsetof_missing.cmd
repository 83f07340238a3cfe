dtrace -xerrtags -s offsetof_missing.d
