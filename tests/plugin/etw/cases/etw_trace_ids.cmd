sh -c 'f=$(mktemp --suffix=.etl) && dtrace -x etwtrace="$f" -qE "$ETW_FIXTURES/replay.etl" -s etw_trace_ids_write.d && dtrace -qE "$f" -s etw_trace_ids_read.d; s=$?; rm -f "$f"; exit $s'
