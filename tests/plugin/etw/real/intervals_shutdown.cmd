sh -c 'dtrace -x switchrate=10s -qE "$ETW_DATA/ShutdownPerfDiagLogger.etl" -s intervals_shutdown.d'
