dtrace -xerrtags -s err_array_member_assign.d
