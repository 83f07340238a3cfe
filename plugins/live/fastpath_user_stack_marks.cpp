// fastpath_user_stack_marks.cpp: loading, attaching and running the marks
// of the ustack() walk's table (see fastpath_user_stack_marks.h).
#include "fastpath_user_stack_marks.h"

#include "bpf/user_stack_marks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>

extern "C" {
extern const unsigned char user_stack_marks_bpf_object[];
extern const size_t user_stack_marks_bpf_object_size;
}

namespace dtrace::live {

// The BPF side's view of a mapping entry is the SDK's.
static_assert(sizeof(user_stack_mapping) == sizeof(dtrace_fastpath_user_mapping));
static_assert(offsetof(user_stack_mapping, start) == offsetof(dtrace_fastpath_user_mapping, start));
static_assert(offsetof(user_stack_mapping, end) == offsetof(dtrace_fastpath_user_mapping, end));
static_assert(offsetof(user_stack_mapping, nrows) == offsetof(dtrace_fastpath_user_mapping, nrows));
static_assert(USER_STACK_MAPPINGS_MAX == DTRACE_UNWIND_MAPPINGS_MAX);

namespace {

// Each program and the tracepoint it follows.
constexpr std::pair<const char *, const char *> kAttachments[] = {
    {"ustack_mmap", "syscalls/sys_enter_mmap"},
    {"ustack_munmap", "syscalls/sys_enter_munmap"},
    {"ustack_mprotect", "syscalls/sys_enter_mprotect"},
    {"ustack_pkey_mprotect", "syscalls/sys_enter_pkey_mprotect"},
    {"ustack_mremap", "syscalls/sys_enter_mremap"},
    {"ustack_mmap_exit", "syscalls/sys_exit_mmap"},
    {"ustack_munmap_exit", "syscalls/sys_exit_munmap"},
    {"ustack_mprotect_exit", "syscalls/sys_exit_mprotect"},
    {"ustack_pkey_mprotect_exit", "syscalls/sys_exit_pkey_mprotect"},
    {"ustack_mremap_exit", "syscalls/sys_exit_mremap"},
    {"ustack_exec", "sched/sched_process_exec"},
    {"ustack_exit", "sched/sched_process_exit"},
};

std::string errno_text() {
    return std::strerror(errno);
}

} // namespace

std::unique_ptr<UserStackMarks> UserStackMarks::attach(int mappings_fd, int64_t pid, std::string &error) {
    static_assert(std::size(kAttachments) == std::tuple_size_v<decltype(links_)>);
    std::unique_ptr<UserStackMarks> marks(new UserStackMarks());
    LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "ustack_marks");
    marks->object_ = bpf_object__open_mem(user_stack_marks_bpf_object, user_stack_marks_bpf_object_size, &opts);
    if (marks->object_ == nullptr) {
        error = "cannot open the ustack marks BPF object: " + errno_text();
        return nullptr;
    }
    bpf_map *mappings = bpf_object__find_map_by_name(marks->object_, "ustack_mappings");
    if (mappings == nullptr || bpf_map__reuse_fd(mappings, mappings_fd) != 0 || bpf_object__load(marks->object_) != 0) {
        error = "cannot load the ustack marks BPF programs: " + errno_text();
        return nullptr;
    }
    marks->gate_fd_ = bpf_object__find_map_fd_by_name(marks->object_, "ustack_gate");
    marks->staged_fd_ = bpf_object__find_map_fd_by_name(marks->object_, "ustack_staged");
    marks->grace_fd_ = bpf_object__find_map_fd_by_name(marks->object_, "ustack_grace");
    marks->in_flight_fd_ = bpf_object__find_map_fd_by_name(marks->object_, "ustack_in_flight");
    marks->publish_fd_ = bpf_program__fd(bpf_object__find_program_by_name(marks->object_, "ustack_publish"));
    // The process first, so that a call of it entered once attached is followed.
    const uint32_t zero = 0;
    user_stack_gate gate{};
    gate.tgid = static_cast<uint32_t>(pid);
    if (bpf_map_update_elem(marks->gate_fd_, &zero, &gate, BPF_ANY) != 0) {
        error = "cannot set the ustack marks' process: " + errno_text();
        return nullptr;
    }
    for (size_t i = 0; i < std::size(kAttachments); i++) {
        const std::string tracepoint = kAttachments[i].second;
        const size_t slash = tracepoint.find('/');
        bpf_program *program = bpf_object__find_program_by_name(marks->object_, kAttachments[i].first);
        marks->links_[i] = program ? bpf_program__attach_tracepoint(program, tracepoint.substr(0, slash).c_str(),
                                                                    tracepoint.substr(slash + 1).c_str())
                                   : nullptr;
        if (marks->links_[i] == nullptr) {
            error = "cannot attach the ustack marks to tracepoint " + tracepoint + ": " + errno_text();
            return nullptr;
        }
    }
    return marks;
}

UserStackMarks::~UserStackMarks() {
    for (bpf_link *link : links_)
        if (link != nullptr)
            bpf_link__destroy(link);
    if (object_ != nullptr)
        bpf_object__close(object_);
}

bool UserStackMarks::gate_field(size_t offset, uint64_t &out) const {
    const uint32_t zero = 0;
    user_stack_gate gate{};
    if (bpf_map_lookup_elem(gate_fd_, &zero, &gate) != 0)
        return false;
    std::memcpy(&out, reinterpret_cast<const uint8_t *>(&gate) + offset, sizeof out);
    return true;
}

uint64_t UserStackMarks::sequence() const {
    uint64_t sequence = USER_STACK_PUBLISHING; // unreadable: never a sequence publish() accepts
    (void)gate_field(offsetof(user_stack_gate, sequence), sequence);
    return sequence;
}

uint64_t UserStackMarks::marks() const {
    uint64_t marks = 0;
    (void)gate_field(offsetof(user_stack_gate, marks), marks);
    return marks;
}

bool UserStackMarks::wait_for_walks(std::string &error) {
    // The kernel's own self-tests wait so too. (membarrier(MEMBARRIER_CMD_GLOBAL)
    // would return at once on a machine of one CPU, where a fully preemptible
    // kernel can preempt a walk.)
    const uint32_t zero = 0;
    if (bpf_map_update_elem(grace_fd_, &zero, &staged_fd_, BPF_ANY) != 0) {
        error = "cannot wait for the walks reading the ustack table: " + errno_text();
        return false;
    }
    return true;
}

UserStackMarks::Publish UserStackMarks::publish(uint64_t sequence,
                                                const std::array<uint32_t, DTRACE_UNWIND_MAPPINGS_MAX> &nrows,
                                                std::string &error) {
    std::array<uint32_t, DTRACE_UNWIND_MAPPINGS_MAX> keys{};
    for (uint32_t i = 0; i < keys.size(); i++)
        keys[i] = i;
    uint32_t count = keys.size();
    if (bpf_map_update_batch(staged_fd_, keys.data(), nrows.data(), &count, nullptr) != 0) {
        error = "cannot stage the ustack table's rows: " + errno_text();
        return Publish::Failed;
    }
    // A thread inside a mapping call: its entry moved the sequence before we
    // read it, its exit will after we publish. (Checked before the sequence:
    // see user_stack_marks.bpf.c's enter().)
    uint32_t tid = 0;
    if (bpf_map_get_next_key(in_flight_fd_, nullptr, &tid) == 0)
        return Publish::Raced;
    LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = &sequence, .ctx_size_in = sizeof sequence);
    if (bpf_prog_test_run_opts(publish_fd_, &run) != 0) {
        error = "cannot run the ustack table's publisher: " + errno_text();
        return Publish::Failed;
    }
    return run.retval == 1 ? Publish::Done : Publish::Raced;
}

} // namespace dtrace::live
