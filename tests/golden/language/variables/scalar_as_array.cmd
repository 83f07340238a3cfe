dtrace -xerrtags -s scalar_as_array.d
