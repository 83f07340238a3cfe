dtrace -Z -s zero_matches_Z.d
