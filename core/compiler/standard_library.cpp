// standard_library.cpp: the text of the standard D library (see
// standard_library.h), its constants written as DTrace's generated
// libraries write them: one `inline int NAME = value;` each.
#include "compiler/standard_library.h"

#include "dif/fault.h"

#include <cerrno>
#include <string_view>
#include <utility>

namespace dtrace::compiler {

namespace {

constexpr std::string_view kNetworkTypes = R"(struct in_addr {
	in_addr_t s_addr;
};
struct in6_addr {
	uint8_t s6_addr[16];
};
typedef struct in6_addr in6_addr_t;
inline int AF_INET = 2;
inline int AF_INET6 = 26;
)";

struct NamedValue {
    const char *name;
    int value;
};

// The fault codes, as the VM numbers its faults (dif/fault.h has DTrace's values).
constexpr NamedValue kFaultCodes[] = {
    {"DTRACEFLT_UNKNOWN", int(dif::FaultKind::None)},
    {"DTRACEFLT_BADADDR", int(dif::FaultKind::BadAddr)},
    {"DTRACEFLT_BADALIGN", int(dif::FaultKind::BadAlign)},
    {"DTRACEFLT_ILLOP", int(dif::FaultKind::IllOp)},
    {"DTRACEFLT_DIVZERO", int(dif::FaultKind::DivZero)},
    {"DTRACEFLT_NOSCRATCH", int(dif::FaultKind::NoScratch)},
    {"DTRACEFLT_KPRIV", int(dif::FaultKind::KPriv)},
    {"DTRACEFLT_UPRIV", int(dif::FaultKind::UPriv)},
    {"DTRACEFLT_TUPOFLOW", int(dif::FaultKind::TupleOverflow)},
    {"DTRACEFLT_BADSTACK", int(dif::FaultKind::BadStack)},
    {"DTRACEFLT_LIBRARY", 1000}, // DTrace's code for faults a library raises; the VM raises none
};

// DTrace generates its errno names from the host's <errno.h>: these are the
// names C++'s <cerrno> guarantees, with the host's values.
#define DTRACE_ERRNO_NAME(name)                                                                                        \
    { #name, name }
constexpr NamedValue kErrnoNames[] = {
    DTRACE_ERRNO_NAME(EPERM),        DTRACE_ERRNO_NAME(ENOENT),        DTRACE_ERRNO_NAME(ESRCH),
    DTRACE_ERRNO_NAME(EINTR),        DTRACE_ERRNO_NAME(EIO),           DTRACE_ERRNO_NAME(ENXIO),
    DTRACE_ERRNO_NAME(E2BIG),        DTRACE_ERRNO_NAME(ENOEXEC),       DTRACE_ERRNO_NAME(EBADF),
    DTRACE_ERRNO_NAME(ECHILD),       DTRACE_ERRNO_NAME(EAGAIN),        DTRACE_ERRNO_NAME(ENOMEM),
    DTRACE_ERRNO_NAME(EACCES),       DTRACE_ERRNO_NAME(EFAULT),        DTRACE_ERRNO_NAME(EBUSY),
    DTRACE_ERRNO_NAME(EEXIST),       DTRACE_ERRNO_NAME(EXDEV),         DTRACE_ERRNO_NAME(ENODEV),
    DTRACE_ERRNO_NAME(ENOTDIR),      DTRACE_ERRNO_NAME(EISDIR),        DTRACE_ERRNO_NAME(EINVAL),
    DTRACE_ERRNO_NAME(ENFILE),       DTRACE_ERRNO_NAME(EMFILE),        DTRACE_ERRNO_NAME(ENOTTY),
    DTRACE_ERRNO_NAME(ETXTBSY),      DTRACE_ERRNO_NAME(EFBIG),         DTRACE_ERRNO_NAME(ENOSPC),
    DTRACE_ERRNO_NAME(ESPIPE),       DTRACE_ERRNO_NAME(EROFS),         DTRACE_ERRNO_NAME(EMLINK),
    DTRACE_ERRNO_NAME(EPIPE),        DTRACE_ERRNO_NAME(EDOM),          DTRACE_ERRNO_NAME(ERANGE),
    DTRACE_ERRNO_NAME(EDEADLK),      DTRACE_ERRNO_NAME(ENAMETOOLONG),  DTRACE_ERRNO_NAME(ENOLCK),
    DTRACE_ERRNO_NAME(ENOSYS),       DTRACE_ERRNO_NAME(ENOTEMPTY),     DTRACE_ERRNO_NAME(ELOOP),
    DTRACE_ERRNO_NAME(EWOULDBLOCK),  DTRACE_ERRNO_NAME(ENOMSG),        DTRACE_ERRNO_NAME(EIDRM),
    DTRACE_ERRNO_NAME(ENOSTR),       DTRACE_ERRNO_NAME(ENODATA),       DTRACE_ERRNO_NAME(ETIME),
    DTRACE_ERRNO_NAME(ENOSR),        DTRACE_ERRNO_NAME(ENOLINK),       DTRACE_ERRNO_NAME(EPROTO),
    DTRACE_ERRNO_NAME(EBADMSG),      DTRACE_ERRNO_NAME(EOVERFLOW),     DTRACE_ERRNO_NAME(EILSEQ),
    DTRACE_ERRNO_NAME(ENOTSOCK),     DTRACE_ERRNO_NAME(EDESTADDRREQ),  DTRACE_ERRNO_NAME(EMSGSIZE),
    DTRACE_ERRNO_NAME(EPROTOTYPE),   DTRACE_ERRNO_NAME(ENOPROTOOPT),   DTRACE_ERRNO_NAME(EPROTONOSUPPORT),
    DTRACE_ERRNO_NAME(EOPNOTSUPP),   DTRACE_ERRNO_NAME(ENOTSUP),       DTRACE_ERRNO_NAME(EAFNOSUPPORT),
    DTRACE_ERRNO_NAME(EADDRINUSE),   DTRACE_ERRNO_NAME(EADDRNOTAVAIL), DTRACE_ERRNO_NAME(ENETDOWN),
    DTRACE_ERRNO_NAME(ENETUNREACH),  DTRACE_ERRNO_NAME(ENETRESET),     DTRACE_ERRNO_NAME(ECONNABORTED),
    DTRACE_ERRNO_NAME(ECONNRESET),   DTRACE_ERRNO_NAME(ENOBUFS),       DTRACE_ERRNO_NAME(EISCONN),
    DTRACE_ERRNO_NAME(ENOTCONN),     DTRACE_ERRNO_NAME(ETIMEDOUT),     DTRACE_ERRNO_NAME(ECONNREFUSED),
    DTRACE_ERRNO_NAME(EHOSTUNREACH), DTRACE_ERRNO_NAME(EALREADY),      DTRACE_ERRNO_NAME(EINPROGRESS),
    DTRACE_ERRNO_NAME(ECANCELED),    DTRACE_ERRNO_NAME(EOWNERDEAD),    DTRACE_ERRNO_NAME(ENOTRECOVERABLE),
};
#undef DTRACE_ERRNO_NAME

// The signal names with Linux's numbers: the signals raise() sends go to
// Linux processes (the core has no <signal.h> of its own to ask).
constexpr NamedValue kSignalNames[] = {
    {"SIGHUP", 1},   {"SIGINT", 2},   {"SIGQUIT", 3},  {"SIGILL", 4},     {"SIGTRAP", 5},    {"SIGABRT", 6},
    {"SIGIOT", 6},   {"SIGBUS", 7},   {"SIGFPE", 8},   {"SIGKILL", 9},    {"SIGUSR1", 10},   {"SIGSEGV", 11},
    {"SIGUSR2", 12}, {"SIGPIPE", 13}, {"SIGALRM", 14}, {"SIGTERM", 15},   {"SIGSTKFLT", 16}, {"SIGCHLD", 17},
    {"SIGCLD", 17},  {"SIGCONT", 18}, {"SIGSTOP", 19}, {"SIGTSTP", 20},   {"SIGTTIN", 21},   {"SIGTTOU", 22},
    {"SIGURG", 23},  {"SIGXCPU", 24}, {"SIGXFSZ", 25}, {"SIGVTALRM", 26}, {"SIGPROF", 27},   {"SIGWINCH", 28},
    {"SIGIO", 29},   {"SIGPOLL", 29}, {"SIGPWR", 30},  {"SIGSYS", 31},
};

template <size_t N> void append_inlines(std::string &text, const NamedValue (&values)[N]) {
    for (const NamedValue &v : values)
        text += std::string("inline int ") + v.name + " = " + std::to_string(v.value) + ";\n";
}

LibrarySource build() {
    std::string text(kNetworkTypes);
    append_inlines(text, kFaultCodes);
    append_inlines(text, kErrnoNames);
    append_inlines(text, kSignalNames);
    return {"standard.d", std::move(text)};
}

} // namespace

const LibrarySource &standard_library() {
    static const LibrarySource library = build();
    return library;
}

} // namespace dtrace::compiler
