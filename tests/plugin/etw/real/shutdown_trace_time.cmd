sh -c 'dtrace -qE "$ETW_DATA/ShutdownPerfDiagLogger.etl" -s trace_time.d'
