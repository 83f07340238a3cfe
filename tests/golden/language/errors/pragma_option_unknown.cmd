dtrace -xerrtags -s pragma_option_unknown.d
