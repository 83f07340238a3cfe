dtrace -xerrtags -s pragma_unused_binding.d
