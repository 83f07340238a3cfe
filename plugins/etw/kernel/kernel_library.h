// kernel_library.h: the D types and translators of the kernel providers.
//
// The kernel providers' translated arguments (args[0] of proc:::start is a
// psinfo_t *, of io:::start a bufinfo_t * ...) are D structs, as the Windows
// port of DTrace defines them (seed 001). The plugin cannot hand D such a
// struct directly: D reads replayed memory only through copyin(). So each
// translated type T has a native twin etw_T: the same members in the same
// order, each a 64-bit slot (a string member is the address of its text).
// The plugin fills a twin for each firing (a KernelRecord below, indexed by
// the member enums), passes its address as the native argument, and the
// translator copies it in and converts each slot to the member's type.
//
// The D source (kernel_d_library()) is generated from the member tables in
// kernel_library.cpp, so the two layouts cannot drift apart. It also defines
// curpsinfo and curlwpsinfo: translations of records the plugin serves at
// two fixed addresses, describing the thread of the current firing.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace dtrace::etw::plugin::kernel {

// The members of each translated type, in order (kernel_library.cpp names
// them and gives their D types), one namespace per type.
namespace ps {
enum Member : uint8_t { pr_ppid, pr_pid, pr_pgid, pr_sid, pr_arch, pr_addr, pr_fname, pr_psargs, pr_arglen, kSize };
}
namespace lwp {
enum Member : uint8_t {
    pr_lwpid,
    pr_flag,
    pr_pri,
    pr_state,
    pr_sname,
    pr_syscall,
    pr_addr,
    pr_wchan,
    pr_waitr,
    pr_waitm,
    pr_wipr,
    pr_waittm,
    pr_cpu,
    pr_affinity,
    pr_iopri,
    pr_pagepri,
    kSize
};
}
namespace fi {
enum Member : uint8_t {
    fi_name,
    fi_dirname,
    fi_pathname,
    fi_offset,
    fi_fs,
    fi_mount,
    fi_oflags,
    fi_cflags,
    fi_aflags,
    fi_sflags,
    fi_bcount,
    fi_extinfo,
    fi_rstatus,
    fi_dbuflen,
    fi_irp,
    fi_dpattern,
    fi_ntpath,
    kSize
};
}
namespace buf {
enum Member : uint8_t {
    b_flags,
    b_irpflags,
    b_bcount,
    b_addr,
    b_lblkno,
    b_blkno,
    b_resid,
    b_bufsize,
    b_iodone,
    b_error,
    b_edev,
    resp,
    kSize
};
}
namespace dev {
enum Member : uint8_t { dev_major, dev_minor, dev_instance, dev_name, dev_statname, dev_pathname, kSize };
}
namespace ip {
enum Member : uint8_t { ip_ver, ip_plength, ip_saddr, ip_daddr, ip_connid, ip_stime, ip_etime, ip_size, kSize };
}
namespace tcp {
enum Member : uint8_t {
    tcp_sport,
    tcp_dport,
    tcp_seq,
    tcp_ack,
    tcp_offset,
    tcp_flags,
    tcp_window,
    tcp_checksum,
    tcp_urgent,
    tcp_hdr,
    tcp_mss,
    tcp_sackopt,
    tcp_tsopt,
    tcp_wsopt,
    tcp_rcvws,
    tcp_sndws,
    kSize
};
}
namespace udp {
enum Member : uint8_t { udp_sport, udp_dport, udp_length, udp_checksum, kSize };
}
namespace reg {
enum Member : uint8_t { r_index, r_status, r_intime, r_rname, kSize };
}

// The largest twin, in slots.
inline constexpr size_t kMaxRecordSlots = fi::kSize;
using KernelRecord = std::array<uint64_t, kMaxRecordSlots>;

// Where curpsinfo and curlwpsinfo read their twins: addresses no host
// pointer can have (the top of the 64-bit space), served by KernelMemory.
inline constexpr uint64_t kCurrentPsinfoAddress = 0xFFFFFFFFFFFF0000ull;
inline constexpr uint64_t kCurrentLwpsinfoAddress = 0xFFFFFFFFFFFF1000ull;

// Solaris' b_flags bits the io probes set.
inline constexpr uint64_t kBufDone = 0x0002;
inline constexpr uint64_t kBufRead = 0x0040;
inline constexpr uint64_t kBufWrite = 0x0100;

// The D source: typedefs, the twins, translators, curpsinfo/curlwpsinfo, B_*.
const std::string &kernel_d_library();

} // namespace dtrace::etw::plugin::kernel
