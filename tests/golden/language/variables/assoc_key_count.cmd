dtrace -xerrtags -s assoc_key_count.d
