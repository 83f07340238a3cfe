sh -c 'dtrace -qE "$ETW_DATA/primitive-types.etl.zip" -s primitive_types.d'
