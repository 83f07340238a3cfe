dtrace -xerrtags -s pragma_attributes_invalid.d
