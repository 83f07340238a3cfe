dtrace -xerrtags -s xlate_no_translator.d
