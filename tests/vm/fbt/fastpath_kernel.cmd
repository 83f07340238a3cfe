dtrace -x plugins=fbt -q -s fastpath_kernel.d -c $DIR/fastpath_workload.sh
