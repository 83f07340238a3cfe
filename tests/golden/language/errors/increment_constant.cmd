dtrace -xerrtags -s increment_constant.d
