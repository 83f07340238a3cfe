dtrace -xerrtags -s pointer_plus_pointer.d
