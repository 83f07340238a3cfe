dtrace -C -s if_expression.d
