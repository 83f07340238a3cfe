env TZ=UTC dtrace -q -s $DIR/time_conversions.d
