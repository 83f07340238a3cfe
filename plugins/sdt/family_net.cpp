// family_net.cpp: ip, tcp and udp — sockets, over sock:sock_send_length,
// sock:sock_recv_length and sock:inet_sock_set_state: pktinfo_t, csinfo_t,
// ipinfo_t, tcpsinfo_t, tcpinfo_t, tcplsinfo_t, udpsinfo_t, udpinfo_t.
//
// | probe                   | tracepoint                          | which events                      |
// |-------------------------|-------------------------------------|-----------------------------------|
// | ip/tcp/udp send         | sock_send_length                    | bytes > 0 (tcp: TCP, udp: UDP)    |
// | ip/tcp/udp receive      | sock_recv_length                    | bytes > 0                         |
// | tcp state-change        | inet_sock_set_state                 | a TCP socket's every change       |
// | tcp connect-request     | inet_sock_set_state                 | CLOSE -> SYN_SENT                 |
// | tcp connect-established | inet_sock_set_state                 | SYN_SENT -> ESTABLISHED           |
// | tcp connect-refused     | inet_sock_set_state                 | SYN_SENT -> CLOSE                 |
// | tcp accept-established  | inet_sock_set_state                 | SYN_RECV -> ESTABLISHED           |
//
// Linux has no per-packet tracepoint with the addresses, so send and
// receive fire once per send or receive call with its byte count (ip_plength,
// udp_length less its header), in the caller's context (cs_pid is the
// caller). The socket's addresses and ports are read from its struct sock
// by the program (IPv4 only: an IPv6 socket's addresses read "<unknown>").
// Sequence numbers, windows and header fields are not known: 0.
// Not here: accept-refused (no tracepoint tells it), ip's ifinfo_t,
// ipv4info_t, ipv6info_t (NULL).
#include <arpa/inet.h>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "probe_family.h"

namespace dtrace::sdt {

namespace {

constexpr uint64_t kFamilyInet = AF_INET, kFamilyInet6 = AF_INET6;
constexpr uint64_t kProtocolTcp = 6, kProtocolUdp = 17;
constexpr uint64_t kUdpHeader = 8;
const std::string kUnknown = "<unknown>";

// Linux's TCP states (include/net/tcp_states.h) as DTrace's TCP_STATE_*.
int32_t dtrace_state(uint64_t linux_state) {
    constexpr int32_t kStates[] = {
        0,  // 0: none
        6,  // TCP_ESTABLISHED
        4,  // TCP_SYN_SENT
        5,  // TCP_SYN_RECV
        8,  // TCP_FIN_WAIT1
        11, // TCP_FIN_WAIT2
        12, // TCP_TIME_WAIT
        0,  // TCP_CLOSE
        7,  // TCP_CLOSE_WAIT
        10, // TCP_LAST_ACK
        3,  // TCP_LISTEN
        9,  // TCP_CLOSING
        5,  // TCP_NEW_SYN_RECV
    };
    return linux_state < std::size(kStates) ? kStates[linux_state] : 0;
}
constexpr uint64_t kLinuxEstablished = 1, kLinuxSynSent = 2, kLinuxSynRecv = 3, kLinuxClose = 7;

// The address in `bytes` (too few for the family, as a format file that
// disagrees with the record may give: unknown).
std::string address_text(uint64_t family, std::span<const uint8_t> bytes) {
    char text[INET6_ADDRSTRLEN] = {};
    const size_t needed = family == kFamilyInet ? 4 : family == kFamilyInet6 ? 16 : SIZE_MAX;
    if (bytes.size() < needed || inet_ntop(static_cast<int>(family), bytes.data(), text, sizeof text) == nullptr)
        return kUnknown;
    return text;
}

// One connection's ends, as the event tells them.
struct Connection {
    uint64_t socket = 0;
    uint64_t family = 0;
    std::string local, remote;
    uint16_t local_port = 0, remote_port = 0;
    int32_t state = 0; // DTrace's
};

// From the struct sock the program read (the copy in args[3], args[4]).
Connection socket_connection(const ArgContext &c, size_t socket_field) {
    Connection k;
    k.socket = c.u(socket_field);
    const uint64_t addresses = c.record.args[3], ends = c.record.args[4];
    k.family = (ends >> 16) & 0xffff;
    k.local_port = static_cast<uint16_t>(ends >> 48);
    k.remote_port = ntohs(static_cast<uint16_t>(ends >> 32));
    k.state = dtrace_state(ends & 0xff);
    const uint32_t local = static_cast<uint32_t>(addresses >> 32), remote = static_cast<uint32_t>(addresses);
    k.local = k.family == kFamilyInet
                  ? address_text(k.family, std::span(reinterpret_cast<const uint8_t *>(&local), sizeof local))
                  : kUnknown;
    k.remote = k.family == kFamilyInet
                   ? address_text(k.family, std::span(reinterpret_cast<const uint8_t *>(&remote), sizeof remote))
                   : kUnknown;
    return k;
}

// What ip, tcp and udp build from a connection: the shared records.
uint64_t csinfo(const ArgContext &c, const Connection &k, int64_t pid) {
    uint64_t address = 0;
    Record &r = c.memory.record(address);
    r[cs::cs_addr] = k.socket;
    r[cs::cs_cid] = k.socket;
    r[cs::cs_pid] = static_cast<uint64_t>(pid);
    return address;
}

uint64_t ipinfo(const ArgContext &c, const Connection &k, bool sent, uint64_t length) {
    uint64_t address = 0;
    Record &r = c.memory.record(address);
    r[ip::ip_ver] = k.family == kFamilyInet6 ? 6 : 4;
    r[ip::ip_plength] = length;
    r[ip::ip_saddr] = c.memory.text(sent ? k.local : k.remote);
    r[ip::ip_daddr] = c.memory.text(sent ? k.remote : k.local);
    return address;
}

uint64_t tcpsinfo(const ArgContext &c, const Connection &k, bool active) {
    uint64_t address = 0;
    Record &r = c.memory.record(address);
    r[tcps::tcps_addr] = k.socket;
    r[tcps::tcps_local] = k.remote == k.local || k.remote.starts_with("127.") || k.remote == "::1";
    r[tcps::tcps_active] = active;
    r[tcps::tcps_lport] = k.local_port;
    r[tcps::tcps_rport] = k.remote_port;
    r[tcps::tcps_laddr] = c.memory.text(k.local);
    r[tcps::tcps_raddr] = c.memory.text(k.remote);
    r[tcps::tcps_state] = static_cast<uint64_t>(k.state);
    return address;
}

uint64_t tcpinfo(const ArgContext &c, const Connection &k, bool sent) {
    uint64_t address = 0;
    Record &r = c.memory.record(address);
    r[tcp::tcp_sport] = sent ? k.local_port : k.remote_port;
    r[tcp::tcp_dport] = sent ? k.remote_port : k.local_port;
    return address;
}

// send and receive: sock_send_length / sock_recv_length.
enum LengthField : size_t { Sk, Family, Protocol, Ret };
constexpr std::string_view kLengthFields[] = {"sk", "family", "protocol", "ret"};

bool inet_bytes(const ArgContext &c) {
    return c.i(Ret) > 0 && (c.u(Family) == kFamilyInet || c.u(Family) == kFamilyInet6);
}
bool tcp_bytes(const ArgContext &c) {
    return inet_bytes(c) && c.u(Protocol) == kProtocolTcp;
}
bool udp_bytes(const ArgContext &c) {
    return inet_bytes(c) && c.u(Protocol) == kProtocolUdp;
}

constexpr dtrace_arg_desc kIpArgs[] = {probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"),
                                       probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
                                       probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"),
                                       probe_arg("void *", 3),
                                       probe_arg("void *", 4),
                                       probe_arg("void *", 5)};
size_t ip_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    const Connection k = socket_connection(c, Sk);
    c.memory.record(a[0]); // pkt_addr: NULL
    a[1] = csinfo(c, k, c.record.pid);
    a[2] = ipinfo(c, k, sent, c.u(Ret));
    return 6; // ifinfo_t, ipv4info_t, ipv6info_t: NULL
}
size_t ip_send(const ArgContext &c, ProbeArgs &a) {
    return ip_args(c, a, true);
}
size_t ip_receive(const ArgContext &c, ProbeArgs &a) {
    return ip_args(c, a, false);
}

constexpr dtrace_arg_desc kTcpArgs[] = {
    probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"), probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
    probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"), probe_arg("sdt_tcpsinfo_t *", 3, "tcpsinfo_t *"),
    probe_arg("sdt_tcpinfo_t *", 4, "tcpinfo_t *")};
size_t tcp_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    const Connection k = socket_connection(c, Sk);
    c.memory.record(a[0]);
    a[1] = csinfo(c, k, c.record.pid);
    a[2] = ipinfo(c, k, sent, c.u(Ret));
    a[3] = tcpsinfo(c, k, false);
    a[4] = tcpinfo(c, k, sent);
    return 5;
}
size_t tcp_send(const ArgContext &c, ProbeArgs &a) {
    return tcp_args(c, a, true);
}
size_t tcp_receive(const ArgContext &c, ProbeArgs &a) {
    return tcp_args(c, a, false);
}

constexpr dtrace_arg_desc kUdpArgs[] = {
    probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"), probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
    probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"), probe_arg("sdt_udpsinfo_t *", 3, "udpsinfo_t *"),
    probe_arg("sdt_udpinfo_t *", 4, "udpinfo_t *")};
size_t udp_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    const Connection k = socket_connection(c, Sk);
    c.memory.record(a[0]);
    a[1] = csinfo(c, k, c.record.pid);
    a[2] = ipinfo(c, k, sent, c.u(Ret) + kUdpHeader);
    Record &s = c.memory.record(a[3]);
    s[udps::udps_addr] = k.socket;
    s[udps::udps_lport] = k.local_port;
    s[udps::udps_rport] = k.remote_port;
    s[udps::udps_laddr] = c.memory.text(k.local);
    s[udps::udps_raddr] = c.memory.text(k.remote);
    Record &u = c.memory.record(a[4]);
    u[udp::udp_sport] = sent ? k.local_port : k.remote_port;
    u[udp::udp_dport] = sent ? k.remote_port : k.local_port;
    u[udp::udp_length] = c.u(Ret) + kUdpHeader;
    return 5;
}
size_t udp_send(const ArgContext &c, ProbeArgs &a) {
    return udp_args(c, a, true);
}
size_t udp_receive(const ArgContext &c, ProbeArgs &a) {
    return udp_args(c, a, false);
}

// inet_sock_set_state: the connection from the tracepoint's own fields.
enum StateField : size_t { Skaddr, OldState, NewState, Sport, Dport, SFamily, SProtocol, Saddr, Daddr, Saddr6, Daddr6 };
constexpr std::string_view kStateFields[] = {"skaddr",   "oldstate", "newstate", "sport",    "dport",   "family",
                                             "protocol", "saddr",    "daddr",    "saddr_v6", "daddr_v6"};
Connection state_connection(const ArgContext &c) {
    Connection k;
    k.socket = c.u(Skaddr);
    k.family = c.u(SFamily);
    k.local_port = static_cast<uint16_t>(c.u(Sport));
    k.remote_port = static_cast<uint16_t>(c.u(Dport));
    k.state = dtrace_state(c.u(NewState));
    const bool v6 = k.family == kFamilyInet6;
    k.local = address_text(k.family, c.bytes(v6 ? Saddr6 : Saddr));
    k.remote = address_text(k.family, c.bytes(v6 ? Daddr6 : Daddr));
    return k;
}
bool tcp_socket(const ArgContext &c) {
    return c.u(SProtocol) == kProtocolTcp;
}
template <uint64_t From, uint64_t To> bool transition(const ArgContext &c) {
    return tcp_socket(c) && c.u(OldState) == From && c.u(NewState) == To;
}

constexpr dtrace_arg_desc kStateChangeArgs[] = {
    probe_arg("void *", 0), probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
    probe_arg("void *", 2), probe_arg("sdt_tcpsinfo_t *", 3, "tcpsinfo_t *"),
    probe_arg("void *", 4), probe_arg("sdt_tcplsinfo_t *", 5, "tcplsinfo_t *")};
size_t state_change(const ArgContext &c, ProbeArgs &a) {
    const Connection k = state_connection(c);
    a[1] = csinfo(c, k, -1); // the context may be the network's, not a process's
    a[3] = tcpsinfo(c, k, false);
    Record &previous = c.memory.record(a[5]);
    previous[tcpls::tcps_state] = static_cast<uint64_t>(dtrace_state(c.u(OldState)));
    return 6;
}
size_t connection_args(const ArgContext &c, ProbeArgs &a, bool active) {
    const Connection k = state_connection(c);
    c.memory.record(a[0]);
    a[1] = csinfo(c, k, -1);
    a[2] = ipinfo(c, k, active, 0);
    a[3] = tcpsinfo(c, k, active);
    a[4] = tcpinfo(c, k, active);
    return 5;
}
size_t connect_args(const ArgContext &c, ProbeArgs &a) {
    return connection_args(c, a, true);
}
size_t accept_args(const ArgContext &c, ProbeArgs &a) {
    return connection_args(c, a, false);
}

using S = EventSource;
constexpr StableProbe kRows[] = {
    {"ip", "send", S::Tracepoint, "sock", "sock_send_length", kLengthFields, kIpArgs, ip_send, inet_bytes, false, "sk"},
    {"ip", "receive", S::Tracepoint, "sock", "sock_recv_length", kLengthFields, kIpArgs, ip_receive, inet_bytes, false,
     "sk"},
    {"tcp", "send", S::Tracepoint, "sock", "sock_send_length", kLengthFields, kTcpArgs, tcp_send, tcp_bytes, false,
     "sk"},
    {"tcp", "receive", S::Tracepoint, "sock", "sock_recv_length", kLengthFields, kTcpArgs, tcp_receive, tcp_bytes,
     false, "sk"},
    {"tcp", "state-change", S::Tracepoint, "sock", "inet_sock_set_state", kStateFields, kStateChangeArgs, state_change,
     tcp_socket},
    {"tcp", "connect-request", S::Tracepoint, "sock", "inet_sock_set_state", kStateFields, kTcpArgs, connect_args,
     transition<kLinuxClose, kLinuxSynSent>},
    {"tcp", "connect-established", S::Tracepoint, "sock", "inet_sock_set_state", kStateFields, kTcpArgs, connect_args,
     transition<kLinuxSynSent, kLinuxEstablished>},
    {"tcp", "connect-refused", S::Tracepoint, "sock", "inet_sock_set_state", kStateFields, kTcpArgs, connect_args,
     transition<kLinuxSynSent, kLinuxClose>},
    {"tcp", "accept-established", S::Tracepoint, "sock", "inet_sock_set_state", kStateFields, kTcpArgs, accept_args,
     transition<kLinuxSynRecv, kLinuxEstablished>},
    {"udp", "send", S::Tracepoint, "sock", "sock_send_length", kLengthFields, kUdpArgs, udp_send, udp_bytes, false,
     "sk"},
    {"udp", "receive", S::Tracepoint, "sock", "sock_recv_length", kLengthFields, kUdpArgs, udp_receive, udp_bytes,
     false, "sk"},
};

} // namespace

std::span<const StableProbe> net_family() {
    return kRows;
}

} // namespace dtrace::sdt
