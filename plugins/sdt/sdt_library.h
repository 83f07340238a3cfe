// sdt_library.h: the D types and translators of the stable providers.
//
// The stable providers' translated arguments (io:::start's args[0] is a
// bufinfo_t *, tcp:::send's args[3] a tcpsinfo_t * ...) are D structs with
// DTrace's names and members, the same struct names the etw plugin's
// replays use, so a script moves between a live machine and a trace. Each
// type T has a native twin sdt_T_t, every member a 64-bit slot (a string
// member is the address of its text); a family's builder fills a twin in
// RecordMemory (record_memory.h), passes its address as the native
// argument, and the translator copies it in. psinfo_t, lwpsinfo_t and
// fileinfo_t (twin live_fileinfo_t) are the live library's (shared by
// every live plugin), not declared here.
//
// The D text is generated from the member tables in sdt_library.cpp, so
// the twins and the member indices below cannot drift apart.
#pragma once

#include <cstdint>
#include <string>

#include "file_library.h"

namespace dtrace::sdt {

namespace buf {
enum : uint8_t { b_flags, b_bcount, b_addr, b_blkno, b_lblkno, b_resid, b_bufsize, b_iodone, b_error, b_edev, kSize };
}
namespace dev {
enum : uint8_t { dev_major, dev_minor, dev_instance, dev_name, dev_statname, dev_pathname, kSize };
}
namespace fi = live::fi; // fileinfo_t is the live library's (file_library.h), shared with fds[]
namespace pkt {
enum : uint8_t { pkt_addr, kSize };
}
namespace cs {
enum : uint8_t { cs_addr, cs_cid, cs_pid, cs_zoneid, kSize };
}
namespace ip {
enum : uint8_t { ip_ver, ip_plength, ip_saddr, ip_daddr, kSize };
}
namespace tcp {
enum : uint8_t {
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
    kSize
};
}
namespace tcps {
enum : uint8_t {
    tcps_addr,
    tcps_local,
    tcps_active,
    tcps_lport,
    tcps_rport,
    tcps_laddr,
    tcps_raddr,
    tcps_state,
    tcps_iss,
    tcps_suna,
    tcps_snxt,
    tcps_rack,
    tcps_rnxt,
    tcps_swnd,
    tcps_snd_ws,
    tcps_rwnd,
    tcps_rcv_ws,
    tcps_cwnd,
    tcps_cwnd_ssthresh,
    tcps_sack_fack,
    tcps_sack_snxt,
    tcps_rto,
    tcps_mss,
    tcps_retransmit,
    kSize
};
}
namespace tcpls {
enum : uint8_t { tcps_state, kSize };
}
namespace udp {
enum : uint8_t { udp_sport, udp_dport, udp_length, udp_checksum, kSize };
}
namespace udps {
enum : uint8_t { udps_addr, udps_lport, udps_rport, udps_laddr, udps_raddr, kSize };
}

// The largest twin, in slots.
inline constexpr size_t kMaxRecordSlots = tcps::kSize;

// Solaris' b_flags bits the io probes set (the etw plugin's values).
inline constexpr uint64_t kBufDone = 0x0002;
inline constexpr uint64_t kBufRead = 0x0040;
inline constexpr uint64_t kBufWrite = 0x0100;

// The D source: the types, twins, translators, B_* and TCP_STATE_* inlines.
const std::string &sdt_d_library();

} // namespace dtrace::sdt
