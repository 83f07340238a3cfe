dtrace -xerrtags -s assoc_key_type.d
