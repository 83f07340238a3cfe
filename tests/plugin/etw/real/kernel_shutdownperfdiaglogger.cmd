sh -c 'dtrace -qE "$ETW_DATA/ShutdownPerfDiagLogger.etl" -s kernel_shutdownperfdiaglogger.d'
