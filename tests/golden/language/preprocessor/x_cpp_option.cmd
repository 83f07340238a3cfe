dtrace -x cpp -s x_cpp_option.d
