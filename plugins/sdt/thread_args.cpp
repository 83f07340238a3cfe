// thread_args.cpp: lwpsinfo_t/psinfo_t arguments (see thread_args.h).
#include "thread_args.h"

#include "process_library.h"

namespace dtrace::sdt {

const dtrace_arg_desc kThreadArgs[2] = {probe_arg("live_lwpsinfo_t *", 0, "lwpsinfo_t *"),
                                        probe_arg("live_psinfo_t *", 1, "psinfo_t *")};

void thread_args(const ArgContext &c, uint32_t pid, uint32_t tid, ProbeArgs &args, size_t first) {
    if (tid == c.record.tid) {
        args[first] = live::kLwpsinfoAddress;
        args[first + 1] = live::kPsinfoAddress;
    } else {
        c.other.describe(c.record, pid, tid);
        args[first] = OtherThread::lwpsinfo_address();
        args[first + 1] = OtherThread::psinfo_address();
    }
}

void child_args(const ArgContext &c, uint32_t pid, uint32_t tid, ProbeArgs &args, size_t first) {
    c.other.describe_child(c.record, pid, tid);
    args[first] = OtherThread::lwpsinfo_address();
    args[first + 1] = OtherThread::psinfo_address();
}

} // namespace dtrace::sdt
