#!/bin/sh
# A target that spends about half a second in user mode (profile goldens).
i=0
while [ $i -lt 300000 ]; do i=$((i + 1)); done
