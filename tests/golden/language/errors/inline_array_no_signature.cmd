dtrace -xerrtags -s inline_array_no_signature.d
