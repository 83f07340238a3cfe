dtrace -xerrtags -s var_undef.d
