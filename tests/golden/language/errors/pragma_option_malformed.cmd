dtrace -xerrtags -s pragma_option_malformed.d
