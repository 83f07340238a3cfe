dtrace -xerrtags -s incomplete_struct_variable.d
