#!/bin/sh
# read_held_open.sh: reads /etc/passwd once with a 12345-byte read(2) (dd)
# while this shell holds the file open for a second more, so that the
# kernel's struct file is still the file's when dtrace reads its name
# (kernel memory is read after the event; see plugins/fbt/README.md).
exec 3</etc/passwd
dd bs=12345 count=1 status=none <&3 >/dev/null
sleep 1
