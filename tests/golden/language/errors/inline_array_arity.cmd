dtrace -xerrtags -s inline_array_arity.d
