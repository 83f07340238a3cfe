dtrace -xerrtags -s pragma_error.d
