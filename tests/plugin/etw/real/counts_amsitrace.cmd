sh -c 'dtrace -qE "$ETW_DATA/AMSITrace.etl" -s counts.d'
