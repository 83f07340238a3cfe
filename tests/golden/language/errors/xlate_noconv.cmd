dtrace -xerrtags -s xlate_noconv.d
