dtrace -xerrtags -s offsetof_type.d
