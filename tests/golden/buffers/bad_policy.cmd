dtrace -x bufpolicy=circular -n BEGIN
