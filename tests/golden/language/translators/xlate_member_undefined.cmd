dtrace -xerrtags -s xlate_member_undefined.d
