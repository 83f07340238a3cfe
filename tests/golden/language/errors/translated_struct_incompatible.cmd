dtrace -xerrtags -s translated_struct_incompatible.d
