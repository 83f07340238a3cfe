sh -c 'dtrace -l -n "etw:::" -n "microsoft-windows-dotnetruntime:::" -E "$ETW_DATA/gcevents.etl.zip"'
