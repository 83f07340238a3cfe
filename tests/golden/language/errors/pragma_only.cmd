dtrace -xerrtags -s pragma_only.d
