sh -c 'dtrace -x etwmanifest="$ETW_DATA/../manifests/ClrEtwAll.man" -qE "$ETW_DATA/gcevents.etl.zip" -s gc_names.d'
