dtrace -xerrtags -s decl_signed_unsigned.d
