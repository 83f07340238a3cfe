sh -c 'dtrace -qE "$ETW_DATA/ShutdownPerfDiagLogger.etl" -s counts.d'
