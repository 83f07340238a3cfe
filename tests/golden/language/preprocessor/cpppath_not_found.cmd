dtrace -C -xcpppath=/nonexistent/cpp -s cpppath_not_found.d
