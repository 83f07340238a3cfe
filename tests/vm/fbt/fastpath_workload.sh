#!/bin/sh
# fastpath_workload.sh: what fastpath_kernel.d traces: dd reading and
# writing three blocks of 12345 bytes, then busybox (static: no loader, no
# locale files) opening two paths from its arguments. Those strings are on
# the stack, always present: copyinstr() in the kernel cannot read a user
# page that is not (the loader's paths in a library page not yet touched).
dd if=/dev/zero of=/dev/null bs=12345 count=3 status=none
busybox cat /dev/null /nonexistent-1 2>/dev/null
exit 0
