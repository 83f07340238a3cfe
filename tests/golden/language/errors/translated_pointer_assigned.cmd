dtrace -xerrtags -s translated_pointer_assigned.d
