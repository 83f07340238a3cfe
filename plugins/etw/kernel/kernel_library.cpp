// kernel_library.cpp: the kernel providers' D library, generated from the
// member tables of the translated types (see kernel_library.h).
#include "kernel/kernel_library.h"

#include <cstdio>
#include <span>
#include <string_view>

#include "d_twin_types.h"

namespace dtrace::etw::plugin::kernel {

namespace {

struct Member {
    std::string_view name;
    std::string_view d_type;
    std::string_view comment;
};

struct TranslatedType {
    std::string_view tag; // struct tag; the typedef is tag_t
    std::span<const Member> members;
};

// The structures of the Windows port (seed 001), members in its order.
constexpr Member kPsinfo[] = {
    {"pr_ppid", "pid_t", "process id of parent"},
    {"pr_pid", "pid_t", "unique process id"},
    {"pr_pgid", "pid_t", "pid of process group leader (the process itself)"},
    {"pr_sid", "pid_t", "session id"},
    {"pr_arch", "int", "process architecture: 32 or 64 (bits)"},
    {"pr_addr", "uintptr_t", "address of process (UniqueProcessKey)"},
    {"pr_fname", "string", "process name"},
    {"pr_psargs", "string", "process arguments (command line)"},
    {"pr_arglen", "u_int", "process argument length"},
};
constexpr Member kLwpsinfo[] = {
    {"pr_lwpid", "id_t", "thread id"},
    {"pr_flag", "int", "thread flags"},
    {"pr_pri", "int", "thread priority"},
    {"pr_state", "char", "numeric thread state (KTHREAD_STATE)"},
    {"pr_sname", "char", "printable character for pr_state"},
    {"pr_syscall", "short", "system call number (if in syscall)"},
    {"pr_addr", "uintptr_t", "internal address of thread (TEB)"},
    {"pr_wchan", "uintptr_t", "sleep address"},
    {"pr_waitr", "char", "thread wait reason"},
    {"pr_waitm", "char", "wait mode"},
    {"pr_wipr", "char", "wait ideal processor"},
    {"pr_waittm", "uint32_t", "wait time"},
    {"pr_cpu", "char", "current cpu"},
    {"pr_affinity", "uint32_t", "processors the thread may run on"},
    {"pr_iopri", "char", "io priority"},
    {"pr_pagepri", "char", "page priority"},
};
constexpr Member kFileinfo[] = {
    {"fi_name", "string", "name (basename of fi_pathname)"},
    {"fi_dirname", "string", "directory (dirname of fi_pathname)"},
    {"fi_pathname", "string", "full pathname"},
    {"fi_offset", "uint64_t", "offset within file"},
    {"fi_fs", "string", "filesystem"},
    {"fi_mount", "string", "mount point of file system"},
    {"fi_oflags", "int", "open flags"},
    {"fi_cflags", "int", "create options"},
    {"fi_aflags", "int", "file attributes"},
    {"fi_sflags", "int", "file share access flags"},
    {"fi_bcount", "int", "number of bytes requested"},
    {"fi_extinfo", "int", "extra info"},
    {"fi_rstatus", "int", "return (NTSTATUS) status"},
    {"fi_dbuflen", "int", "directory enum buffer size"},
    {"fi_irp", "caddr_t", "unique irp address"},
    {"fi_dpattern", "string", "directory search pattern"},
    {"fi_ntpath", "string", "full pathname as the trace gives it (NT device path)"},
};
constexpr Member kBufinfo[] = {
    {"b_flags", "int", "buffer status"},
    {"b_irpflags", "int", "I/O request packet flags"},
    {"b_bcount", "size_t", "number of bytes"},
    {"b_addr", "caddr_t", "buffer address (the IRP)"},
    {"b_lblkno", "uint64_t", "block # on device"},
    {"b_blkno", "uint64_t", "expanded block # on device"},
    {"b_resid", "size_t", "# of bytes not transferred"},
    {"b_bufsize", "size_t", "size of allocated buffer"},
    {"b_iodone", "caddr_t", "I/O completion routine"},
    {"b_error", "int", "expanded error field"},
    {"b_edev", "int", "extended device"},
    {"resp", "uint64_t", "time between I/O initiation and completion (ns)"},
};
constexpr Member kDevinfo[] = {
    {"dev_major", "int", "major number"},
    {"dev_minor", "int", "minor number (the disk number)"},
    {"dev_instance", "int", "instance number (the disk number)"},
    {"dev_name", "string", "name of device"},
    {"dev_statname", "string", "name of device + instance/minor"},
    {"dev_pathname", "string", "pathname of device"},
};
constexpr Member kIpinfo[] = {
    {"ip_ver", "uint8_t", "IP version (4, 6)"},
    {"ip_plength", "uint16_t", "payload length"},
    {"ip_saddr", "string", "source address"},
    {"ip_daddr", "string", "destination address"},
    {"ip_connid", "uint32_t", "connection identifier"},
    {"ip_stime", "uint64_t", "start send request time"},
    {"ip_etime", "uint32_t", "end send request time"},
    // ip_plength is 16 bits, as in DTrace and the seed: an LSO send can be larger.
    {"ip_size", "uint32_t", "payload length, never truncated"},
};
constexpr Member kTcpinfo[] = {
    {"tcp_sport", "uint16_t", "source port"},
    {"tcp_dport", "uint16_t", "destination port"},
    {"tcp_seq", "uint32_t", "sequence number"},
    {"tcp_ack", "uint32_t", "acknowledgement number"},
    {"tcp_offset", "uint8_t", "data offset, in bytes"},
    {"tcp_flags", "uint8_t", "flags"},
    {"tcp_window", "uint16_t", "window size"},
    {"tcp_checksum", "uint16_t", "checksum"},
    {"tcp_urgent", "uint16_t", "urgent data pointer"},
    {"tcp_hdr", "struct tcphdr *", "raw TCP header (not in the trace: NULL)"},
    {"tcp_mss", "uint16_t", "maximum segment size"},
    {"tcp_sackopt", "uint16_t", "selective acknowledgment option"},
    {"tcp_tsopt", "uint16_t", "time stamp option"},
    {"tcp_wsopt", "uint16_t", "window scale option"},
    {"tcp_rcvws", "uint16_t", "receive window scaling factor"},
    {"tcp_sndws", "uint16_t", "send window scaling factor"},
};
constexpr Member kUdpinfo[] = {
    {"udp_sport", "uint16_t", "source port"},
    {"udp_dport", "uint16_t", "destination port"},
    {"udp_length", "uint16_t", "payload length"},
    {"udp_checksum", "uint16_t", "checksum (not in the trace: 0)"},
};
constexpr Member kRegistry[] = {
    {"r_index", "int", "subkey index (EnumerateKey ...)"},
    {"r_status", "int", "NTSTATUS of the operation"},
    {"r_intime", "int64_t", "initial time of the operation"},
    {"r_rname", "string", "name of the registry key"},
};

static_assert(std::size(kPsinfo) == ps::kSize && std::size(kLwpsinfo) == lwp::kSize &&
              std::size(kFileinfo) == fi::kSize && std::size(kBufinfo) == buf::kSize &&
              std::size(kDevinfo) == dev::kSize && std::size(kIpinfo) == ip::kSize &&
              std::size(kTcpinfo) == tcp::kSize && std::size(kUdpinfo) == udp::kSize &&
              std::size(kRegistry) == reg::kSize);

constexpr TranslatedType kTypes[] = {
    {"psinfo", kPsinfo},   {"lwpsinfo", kLwpsinfo}, {"fileinfo", kFileinfo},
    {"bufinfo", kBufinfo}, {"devinfo", kDevinfo},   {"ipinfo", kIpinfo},
    {"tcpinfo", kTcpinfo}, {"udpinfo", kUdpinfo},   {"registry", kRegistry},
};

constexpr std::string_view kPrelude = "typedef char *caddr_t;\n"
                                      "typedef unsigned int u_int;\n"
                                      "struct tcphdr {\n"
                                      "\tuint16_t th_sport;\n"
                                      "\tuint16_t th_dport;\n"
                                      "\tuint32_t th_seq;\n"
                                      "\tuint32_t th_ack;\n"
                                      "\tuint8_t th_offx2;\n"
                                      "\tuint8_t th_flags;\n"
                                      "\tuint16_t th_win;\n"
                                      "\tuint16_t th_sum;\n"
                                      "\tuint16_t th_urp;\n"
                                      "};\n";

constexpr std::string_view kFlagInlines = "inline int B_DONE = 0x0002;\n"
                                          "inline int B_READ = 0x0040;\n"
                                          "inline int B_WRITE = 0x0100;\n";
static_assert(kBufDone == 0x0002 && kBufRead == 0x0040 && kBufWrite == 0x0100);

std::string hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

} // namespace

const std::string &kernel_d_library() {
    static const std::string library = [] {
        std::string d(kPrelude);
        for (const TranslatedType &t : kTypes) {
            plugin_common::append_twin_type(d, t.tag, "etw_", t.members);
        }
        d += "inline psinfo_t *curpsinfo = xlate<psinfo_t *>((etw_psinfo_t *)" + hex(kCurrentPsinfoAddress) + ");\n";
        d += "inline lwpsinfo_t *curlwpsinfo = xlate<lwpsinfo_t *>((etw_lwpsinfo_t *)" + hex(kCurrentLwpsinfoAddress) +
             ");\n";
        d += kFlagInlines;
        return d;
    }();
    return library;
}

} // namespace dtrace::etw::plugin::kernel
