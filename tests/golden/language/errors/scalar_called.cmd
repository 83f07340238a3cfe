dtrace -xerrtags -s scalar_called.d
