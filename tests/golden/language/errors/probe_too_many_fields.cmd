dtrace -xerrtags -s probe_too_many_fields.d
