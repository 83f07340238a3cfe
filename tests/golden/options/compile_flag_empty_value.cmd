dtrace -x zdefs= -n BEGIN
