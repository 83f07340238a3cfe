dtrace -xerrtags -s lvalue_constant.d
