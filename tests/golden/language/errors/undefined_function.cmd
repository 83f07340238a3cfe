dtrace -xerrtags -s undefined_function.d
