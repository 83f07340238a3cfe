dtrace -G -s header_default_name.d -o /dev/null no_such_object.o
