dtrace -xerrtags -s struct_member_twice.d
