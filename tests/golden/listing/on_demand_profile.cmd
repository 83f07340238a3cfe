dtrace -l -n profile:::profile-123hz -n tick-3s -n tick-250us
