sh -c 'dtrace -qE "$NETTRACE_DATA/only_managed_samples.nettrace.zip" -n "microsoft-dotnetcore-sampleprofiler:::events { @[ustack(4)] = count(); } END { trunc(@, 4); }"'
