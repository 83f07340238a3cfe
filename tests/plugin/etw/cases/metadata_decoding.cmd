sh -c 'dtrace -qE "$ETW_FIXTURES/metadata.etl" -s metadata_decoding.d'
