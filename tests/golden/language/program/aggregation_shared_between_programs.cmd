dtrace -q -n 'BEGIN { @calls["begin"] = count(); }' -n 'BEGIN { @calls["begin"] = count(); @calls["exit"] = count(); exit(0); }'
