dtrace -s macro_in_description.d 5
