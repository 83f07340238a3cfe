dtrace -xerrtags -s array_store_out_of_bounds.d
