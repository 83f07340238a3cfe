dtrace -xerrtags -s type_member.d
