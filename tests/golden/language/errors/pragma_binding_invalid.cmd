dtrace -xerrtags -s pragma_binding_invalid.d
