dtrace -xerrtags -s deref_void_pointer.d
