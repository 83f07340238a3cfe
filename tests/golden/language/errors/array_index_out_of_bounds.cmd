dtrace -xerrtags -s array_index_out_of_bounds.d
