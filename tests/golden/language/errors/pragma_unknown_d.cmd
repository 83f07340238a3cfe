dtrace -xerrtags -s pragma_unknown_d.d
