sh -c 'dtrace -qE "$ETW_DATA/powershell.etl" -n "microsoft-windows-powershell:::events { @[arg0, arg1] = count(); }"'
