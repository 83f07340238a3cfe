dtrace -xerrtags -s control_unknown.d
