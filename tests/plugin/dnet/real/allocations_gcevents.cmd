sh -c 'dtrace -qE "$ETW_DATA/gcevents.etl.zip" -s ../cases/allocations.d'
