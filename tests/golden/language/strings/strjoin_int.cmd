dtrace -xerrtags -s strjoin_int.d
