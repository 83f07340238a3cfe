dtrace -xerrtags -s lvalue_expression.d
