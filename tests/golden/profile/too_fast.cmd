dtrace -n 'profile-10000 { exit(0); }'
