dtrace -xerrtags -s probe_no_match.d
