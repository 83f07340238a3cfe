dtrace -xerrtags -s pointer_different_types.d
