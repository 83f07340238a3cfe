// family_net.cpp: ip, tcp and udp — packets, over the packet programs
// (bpf/sdt_packets.bpf.c: net:net_dev_queue and net:netif_receive_skb as BTF
// tracepoints), and TCP's connections, over sock:inet_sock_set_state:
// pktinfo_t, csinfo_t, ipinfo_t, tcpsinfo_t, tcpinfo_t, tcplsinfo_t,
// udpsinfo_t, udpinfo_t.
//
// | probe                   | event                               | which events                      |
// |-------------------------|-------------------------------------|-----------------------------------|
// | ip/tcp/udp send         | net_dev_queue                       | each IP (TCP, UDP) packet queued  |
// | ip/tcp/udp receive      | netif_receive_skb                   | each IP (TCP, UDP) packet arriving|
// | tcp state-change        | inet_sock_set_state                 | a TCP socket's every change       |
// | tcp connect-request     | inet_sock_set_state                 | CLOSE -> SYN_SENT                 |
// | tcp connect-established | inet_sock_set_state                 | SYN_SENT -> ESTABLISHED           |
// | tcp connect-refused     | inet_sock_set_state                 | SYN_SENT -> CLOSE                 |
// | tcp accept-established  | inet_sock_set_state                 | SYN_RECV -> ESTABLISHED           |
//
// send and receive fire once per packet on every interface, loopback
// included, with the packet's headers (packet_args.h says what each member
// reads as). A segmentation-offloaded send (TSO/GSO) is one packet here, as
// the device is handed it, and so is a receive the driver merged (GRO). The
// connection events read the tracepoint's own fields; their csinfo's cs_pid
// is -1 (the context may be the network's).
// Not here: accept-refused (no tracepoint tells it), ip's ifinfo_t,
// ipv4info_t, ipv6info_t (NULL).
#include <cstdint>

#include "net_records.h"
#include "packet_args.h"
#include "probe_family.h"

namespace dtrace::sdt {

namespace {

constexpr uint64_t kLinuxEstablished = 1, kLinuxSynSent = 2, kLinuxSynRecv = 3, kLinuxClose = 7;

constexpr dtrace_arg_desc kIpArgs[] = {probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"),
                                       probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
                                       probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"),
                                       probe_arg("void *", 3),
                                       probe_arg("void *", 4),
                                       probe_arg("void *", 5)};
constexpr dtrace_arg_desc kTcpArgs[] = {
    probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"), probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
    probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"), probe_arg("sdt_tcpsinfo_t *", 3, "tcpsinfo_t *"),
    probe_arg("sdt_tcpinfo_t *", 4, "tcpinfo_t *")};
constexpr dtrace_arg_desc kUdpArgs[] = {
    probe_arg("sdt_pktinfo_t *", 0, "pktinfo_t *"), probe_arg("sdt_csinfo_t *", 1, "csinfo_t *"),
    probe_arg("sdt_ipinfo_t *", 2, "ipinfo_t *"), probe_arg("sdt_udpsinfo_t *", 3, "udpsinfo_t *"),
    probe_arg("sdt_udpinfo_t *", 4, "udpinfo_t *")};

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
    {"ip", "send", S::SendPacket, {}, {}, {}, kIpArgs, ip_send_packet},
    {"ip", "receive", S::ReceivePacket, {}, {}, {}, kIpArgs, ip_receive_packet},
    {"tcp", "send", S::SendPacket, {}, {}, {}, kTcpArgs, tcp_send_packet},
    {"tcp", "receive", S::ReceivePacket, {}, {}, {}, kTcpArgs, tcp_receive_packet},
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
    {"udp", "send", S::SendPacket, {}, {}, {}, kUdpArgs, udp_send_packet},
    {"udp", "receive", S::ReceivePacket, {}, {}, {}, kUdpArgs, udp_receive_packet},
};

} // namespace

std::span<const StableProbe> net_family() {
    return kRows;
}

} // namespace dtrace::sdt
