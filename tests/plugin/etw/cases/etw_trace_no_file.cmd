bash -c 'set -o pipefail; dtrace -qn "BEGIN { etw_trace(\"P\", \"5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b\", \"E\", 4, 0); exit(0); }" 2>&1 | sed "s|[^ ]*/etw\.so|etw.so|"'
