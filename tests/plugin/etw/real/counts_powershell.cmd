sh -c 'dtrace -qE "$ETW_DATA/powershell.etl" -s counts.d'
