// arg_types.cpp: kernel argument types to D types.
#include "arg_types.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace dtrace::syscall {

namespace {

// Kernel typedefs syscalls use, as D typedefs (x86-64 sizes).
constexpr std::pair<std::string_view, std::string_view> kTypedefs[] = {
    {"umode_t", "unsigned short"},
    {"loff_t", "long long"},
    {"off_t", "long"},
    {"u32", "unsigned int"},
    {"u64", "unsigned long long"},
    {"__u32", "unsigned int"},
    {"__u64", "unsigned long long"},
    {"__s32", "int"},
    {"aio_context_t", "unsigned long"},
    {"key_t", "int"},
    {"key_serial_t", "int"},
    {"mqd_t", "int"},
    {"timer_t", "int"},
    {"clockid_t", "int"},
    {"qid_t", "unsigned int"},
    {"rwf_t", "int"},
    {"__kernel_old_time_t", "long"},
    {"cap_user_header_t", "void *"},
    {"cap_user_data_t", "void *"},
};

// Opaque types only ever passed by pointer, declared as incomplete
// structures.
constexpr std::string_view kOpaqueTypedefs[] = {"sigset_t", "fd_set", "stack_t", "siginfo_t"};

// Structure and union tags of syscall arguments, declared incomplete.
constexpr std::string_view kStructTags[] = {"__kernel_timespec",
                                            "iovec",
                                            "sockaddr",
                                            "__kernel_old_timeval",
                                            "stat",
                                            "epoll_event",
                                            "__kernel_itimerspec",
                                            "sched_param",
                                            "rusage",
                                            "io_event",
                                            "__kernel_old_itimerval",
                                            "user_msghdr",
                                            "timezone",
                                            "statfs",
                                            "sembuf",
                                            "sched_attr",
                                            "rlimit",
                                            "pollfd",
                                            "msgbuf",
                                            "mq_attr",
                                            "mount_attr",
                                            "mmsghdr",
                                            "futex_waitv",
                                            "file_handle",
                                            "__kernel_timex",
                                            "mnt_id_req",
                                            "robust_list_head",
                                            "xattr_args",
                                            "utimbuf",
                                            "ustat",
                                            "tms",
                                            "sysinfo",
                                            "statx",
                                            "statmount",
                                            "siginfo",
                                            "sigevent",
                                            "sigaction",
                                            "shmid_ds",
                                            "rseq",
                                            "rlimit64",
                                            "perf_event_attr",
                                            "open_how",
                                            "new_utsname",
                                            "msqid_ds",
                                            "linux_dirent64",
                                            "linux_dirent",
                                            "iocb",
                                            "io_uring_params",
                                            "getcpu_cache",
                                            "clone_args",
                                            "cachestat_range",
                                            "cachestat",
                                            "__aio_sigset",
                                            "landlock_ruleset_attr",
                                            "lsm_ctx",
                                            "file_attr"};
constexpr std::string_view kUnionTags[] = {"bpf_attr"};

// D's own names (types.cpp's intrinsics and <sys/types.h> typedefs) that
// syscall formats use.
constexpr std::string_view kDNames[] = {
    "char",  "short", "int",      "long", "unsigned", "signed",   "void",    "size_t",  "ssize_t",   "pid_t",   "uid_t",
    "gid_t", "const", "volatile", "id_t", "uint32_t", "uint64_t", "int32_t", "int64_t", "uintptr_t", "intptr_t"};

std::vector<std::string> words_of(std::string_view type) {
    std::vector<std::string> words;
    std::string word;
    for (char c : type) {
        if (c == ' ' || c == '*') {
            if (!word.empty())
                words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        words.push_back(std::move(word));
    return words;
}

template <typename Range> bool contains(const Range &range, std::string_view name) {
    return std::find(std::begin(range), std::end(range), name) != std::end(range);
}

bool typedef_known(std::string_view name) {
    return contains(kDNames, name) || contains(kOpaqueTypedefs, name) ||
           std::any_of(std::begin(kTypedefs), std::end(kTypedefs), [&](const auto &t) { return t.first == name; });
}

// Whether D knows every name in `type`.
bool known_type(std::string_view type) {
    std::vector<std::string> words = words_of(type);
    for (size_t i = 0; i < words.size(); ++i) {
        if (words[i] == "struct" || words[i] == "union" || words[i] == "enum") {
            if (i + 1 >= words.size())
                return false;
            const std::string &tag = words[++i];
            if (!(words[i - 1] == "struct" ? contains(kStructTags, tag) : contains(kUnionTags, tag)))
                return false;
        } else if (!typedef_known(words[i])) {
            return false;
        }
    }
    return !words.empty();
}

// "struct robust_list_head * *" -> "struct robust_list_head **".
std::string normalized(std::string_view type) {
    std::string out;
    for (size_t i = 0; i < type.size(); ++i) {
        if (type[i] == ' ' && i + 1 < type.size() && type[i + 1] == '*' && !out.empty() && out.back() == '*')
            continue;
        out += type[i];
    }
    return out;
}

std::string generic_integer(const live::TracepointField &field) {
    const char *base = field.size <= 1 ? "char" : field.size == 2 ? "short" : field.size == 4 ? "int" : "long";
    return field.is_signed ? std::string(base) : "unsigned " + std::string(base);
}

} // namespace

std::string d_type_of(const live::TracepointField &field) {
    std::string type = normalized(field.type);
    if (known_type(type))
        return type;
    if (type.find('*') != std::string::npos)
        return type.starts_with("const ") ? "const void *" : "void *";
    return generic_integer(field);
}

const std::string &syscall_d_types() {
    static const std::string text = [] {
        std::string d;
        for (const auto &[name, target] : kTypedefs)
            d += "typedef " + std::string(target) + " " + std::string(name) + ";\n";
        for (std::string_view name : kOpaqueTypedefs)
            d += "typedef struct " + std::string(name) + "_opaque " + std::string(name) + ";\n";
        for (std::string_view tag : kStructTags)
            d += "struct " + std::string(tag) + ";\n";
        for (std::string_view tag : kUnionTags)
            d += "union " + std::string(tag) + ";\n";
        return d;
    }();
    return text;
}

} // namespace dtrace::syscall
