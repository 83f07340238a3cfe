sh -c 'f=$(mktemp --suffix=.etl) && dtrace -x etwtrace="$f" -qs etw_trace_write.d && dtrace -qE "$f" -s etw_trace_read.d; s=$?; rm -f "$f"; exit $s'
