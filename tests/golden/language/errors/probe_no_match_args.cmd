dtrace -xerrtags -s probe_no_match_args.d
