dtrace -xerrtags -s this_assoc.d
