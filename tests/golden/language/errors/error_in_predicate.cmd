dtrace -xerrtags -s error_in_predicate.d
