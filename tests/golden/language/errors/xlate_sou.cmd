dtrace -xerrtags -s xlate_sou.d
