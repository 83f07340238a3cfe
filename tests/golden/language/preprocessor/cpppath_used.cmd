dtrace -C -xcpppath=$DIR/include/cpp-wrapper.sh -s cpppath_used.d
