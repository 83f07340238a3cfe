// sdt_library.cpp: the stable providers' D library, generated from the
// member tables of the translated types (see sdt_library.h).
#include "sdt_library.h"

#include <span>
#include <string_view>

#include "d_twin_types.h"

namespace dtrace::sdt {

namespace {

using Member = plugin_common::TwinMember;

struct TranslatedType {
    std::string_view tag; // struct tag; the typedef is tag_t
    std::span<const Member> members;
};

// The Dynamic Tracing Guide's structures; what Linux cannot know reads as
// docs/linux-providers.md says, member by member.
constexpr Member kBufinfo[] = {
    {"b_flags", "int", "flags: B_READ or B_WRITE, B_DONE at completion"},
    {"b_bcount", "size_t", "number of bytes"},
    {"b_addr", "caddr_t", "buffer address (Linux: 0)"},
    {"b_blkno", "uint64_t", "expanded block # on device (512-byte sectors)"},
    {"b_lblkno", "uint64_t", "block # on device (512-byte sectors)"},
    {"b_resid", "size_t", "# of bytes not transferred (Linux: 0)"},
    {"b_bufsize", "size_t", "size of allocated buffer"},
    {"b_iodone", "caddr_t", "I/O completion routine (Linux: 0)"},
    {"b_error", "int", "expanded error field (done: the request's error)"},
    {"b_edev", "uint64_t", "extended device (major << 20 | minor)"},
};
constexpr Member kDevinfo[] = {
    {"dev_major", "int", "major number"},
    {"dev_minor", "int", "minor number"},
    {"dev_instance", "int", "instance number (Linux: the minor)"},
    {"dev_name", "string", "name of device (the disk's, e.g. vda)"},
    {"dev_statname", "string", "name of device + instance/minor (e.g. vda1)"},
    {"dev_pathname", "string", "pathname of device (/dev/...)"},
};
constexpr Member kPktinfo[] = {
    {"pkt_addr", "uintptr_t", "currently always NULL"},
};
constexpr Member kCsinfo[] = {
    {"cs_addr", "uintptr_t", "the socket's kernel address"},
    {"cs_cid", "uint64_t", "connection identifier (the socket's address)"},
    {"cs_pid", "pid_t", "associated PID (-1: not known at the event)"},
    {"cs_zoneid", "int", "associated zoneid (Linux: 0)"},
};
constexpr Member kIpinfo[] = {
    {"ip_ver", "uint8_t", "IP version (4, 6)"},
    {"ip_plength", "uint16_t", "payload length"},
    {"ip_saddr", "string", "source address"},
    {"ip_daddr", "string", "destination address"},
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
    {"tcp_hdr", "struct tcphdr *", "raw TCP header (not captured: NULL)"},
};
constexpr Member kTcpsinfo[] = {
    {"tcps_addr", "uintptr_t", "the socket's kernel address"},
    {"tcps_local", "int", "is delivered locally, boolean"},
    {"tcps_active", "int", "active open (from here), boolean"},
    {"tcps_lport", "uint16_t", "local port"},
    {"tcps_rport", "uint16_t", "remote port"},
    {"tcps_laddr", "string", "local address"},
    {"tcps_raddr", "string", "remote address"},
    {"tcps_state", "int32_t", "current TCP state (TCP_STATE_*)"},
    {"tcps_iss", "uint32_t", "initial sequence # sent"},
    {"tcps_suna", "uint32_t", "sequence # sent but unacked"},
    {"tcps_snxt", "uint32_t", "next sequence # to send"},
    {"tcps_rack", "uint32_t", "sequence # we have acked"},
    {"tcps_rnxt", "uint32_t", "next sequence # expected"},
    {"tcps_swnd", "uint32_t", "send window size"},
    {"tcps_snd_ws", "int32_t", "send window scaling"},
    {"tcps_rwnd", "uint32_t", "receive window size"},
    {"tcps_rcv_ws", "int32_t", "receive window scaling"},
    {"tcps_cwnd", "uint32_t", "congestion window"},
    {"tcps_cwnd_ssthresh", "uint32_t", "threshold for congestion avoidance"},
    {"tcps_sack_fack", "uint32_t", "SACK sequence # we have acked"},
    {"tcps_sack_snxt", "uint32_t", "next SACK seq # for retransmission"},
    {"tcps_rto", "uint32_t", "round-trip timeout, msec"},
    {"tcps_mss", "uint32_t", "max segment size"},
    {"tcps_retransmit", "int", "retransmit send event, boolean"},
};
constexpr Member kTcplsinfo[] = {
    {"tcps_state", "int32_t", "previous TCP state"},
};
constexpr Member kUdpinfo[] = {
    {"udp_sport", "uint16_t", "source port"},
    {"udp_dport", "uint16_t", "destination port"},
    {"udp_length", "uint16_t", "total length (header and payload)"},
    {"udp_checksum", "uint16_t", "checksum (not captured: 0)"},
};
constexpr Member kUdpsinfo[] = {
    {"udps_addr", "uintptr_t", "the socket's kernel address"},
    {"udps_lport", "uint16_t", "local port"},
    {"udps_rport", "uint16_t", "remote port"},
    {"udps_laddr", "string", "local address"},
    {"udps_raddr", "string", "remote address"},
};

static_assert(std::size(kBufinfo) == buf::kSize && std::size(kDevinfo) == dev::kSize &&
              std::size(kPktinfo) == pkt::kSize && std::size(kCsinfo) == cs::kSize && std::size(kIpinfo) == ip::kSize &&
              std::size(kTcpinfo) == tcp::kSize && std::size(kTcpsinfo) == tcps::kSize &&
              std::size(kTcplsinfo) == tcpls::kSize && std::size(kUdpinfo) == udp::kSize &&
              std::size(kUdpsinfo) == udps::kSize);

constexpr TranslatedType kTypes[] = {
    {"bufinfo", kBufinfo}, {"devinfo", kDevinfo},   {"pktinfo", kPktinfo},   {"csinfo", kCsinfo},
    {"ipinfo", kIpinfo},   {"tcpinfo", kTcpinfo},   {"tcpsinfo", kTcpsinfo}, {"tcplsinfo", kTcplsinfo},
    {"udpinfo", kUdpinfo}, {"udpsinfo", kUdpsinfo},
};

// caddr_t and struct tcphdr as DTrace declares them (offset_t and
// fileinfo_t are the live library's, file_library.h); the flag,
// state and TCP header flag (TH_*) constants with DTrace's names and values.
constexpr std::string_view kPrelude = "typedef char *caddr_t;\n"
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

constexpr std::string_view kInlines = "inline int B_DONE = 0x0002;\n"
                                      "inline int B_READ = 0x0040;\n"
                                      "inline int B_WRITE = 0x0100;\n"
                                      "inline int32_t TCP_STATE_CLOSED = 0;\n"
                                      "inline int32_t TCP_STATE_IDLE = 1;\n"
                                      "inline int32_t TCP_STATE_BOUND = 2;\n"
                                      "inline int32_t TCP_STATE_LISTEN = 3;\n"
                                      "inline int32_t TCP_STATE_SYN_SENT = 4;\n"
                                      "inline int32_t TCP_STATE_SYN_RECEIVED = 5;\n"
                                      "inline int32_t TCP_STATE_ESTABLISHED = 6;\n"
                                      "inline int32_t TCP_STATE_CLOSE_WAIT = 7;\n"
                                      "inline int32_t TCP_STATE_FIN_WAIT_1 = 8;\n"
                                      "inline int32_t TCP_STATE_CLOSING = 9;\n"
                                      "inline int32_t TCP_STATE_LAST_ACK = 10;\n"
                                      "inline int32_t TCP_STATE_FIN_WAIT_2 = 11;\n"
                                      "inline int32_t TCP_STATE_TIME_WAIT = 12;\n"
                                      "inline uint8_t TH_FIN = 0x01;\n"
                                      "inline uint8_t TH_SYN = 0x02;\n"
                                      "inline uint8_t TH_RST = 0x04;\n"
                                      "inline uint8_t TH_PUSH = 0x08;\n"
                                      "inline uint8_t TH_ACK = 0x10;\n"
                                      "inline uint8_t TH_URG = 0x20;\n"
                                      "inline uint8_t TH_ECE = 0x40;\n"
                                      "inline uint8_t TH_CWR = 0x80;\n";
static_assert(kBufDone == 0x0002 && kBufRead == 0x0040 && kBufWrite == 0x0100);

} // namespace

const std::string &sdt_d_library() {
    static const std::string library = [] {
        std::string d(kPrelude);
        for (const TranslatedType &t : kTypes)
            plugin_common::append_twin_type(d, t.tag, "sdt_", t.members);
        d += kInlines;
        return d;
    }();
    return library;
}

} // namespace dtrace::sdt
