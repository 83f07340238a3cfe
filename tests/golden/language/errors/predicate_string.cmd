dtrace -xerrtags -s predicate_string.d
