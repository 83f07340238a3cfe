dtrace -xerrtags -s decl_combo.d
