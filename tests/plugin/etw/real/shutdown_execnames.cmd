sh -c 'dtrace -qE "$ETW_DATA/ShutdownPerfDiagLogger.etl" -n "image:::events /execname != \"\"/ { @[execname, ppid] = count(); }"'
