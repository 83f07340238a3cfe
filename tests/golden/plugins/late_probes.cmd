dtrace -x noplugins -x plugin=$BUILD/tests/plugin/lateprov/lateprov.so -n 'late:::p-* { @[probename == "p-initial" ? "initial" : "late"] = count(); } late:::done { exit(0); }'
