// family_net.cpp: tcpip and udpip — the network (TcpIp and UdpIp classes):
// ipinfo_t with tcpinfo_t or udpinfo_t; fail's protocol and code.
//
// tcpip (IPv4, IPv6 opcodes): send 10/26, receive 11/27, connect 12/28,
// disconnect 13/29, retransmit 14/30, accept 15/31, reconnect 16/32,
// copy 18/34.
#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kFirstIpv6Opcode = 26;

namespace field {
const MofFieldId size{"size"};
const MofFieldId saddr{"saddr"};
const MofFieldId daddr{"daddr"};
const MofFieldId connid{"connid"};
const MofFieldId startime{"startime"};
const MofFieldId endtime{"endtime"};
const MofFieldId sport{"sport"};
const MofFieldId dport{"dport"};
const MofFieldId seqnum{"seqnum"};
const MofFieldId rcvwin{"rcvwin"};
const MofFieldId mss{"mss"};
const MofFieldId sackopt{"sackopt"};
const MofFieldId tsopt{"tsopt"};
const MofFieldId wsopt{"wsopt"};
const MofFieldId rcvwinscale{"rcvwinscale"};
const MofFieldId sndwinscale{"sndwinscale"};
const MofFieldId Proto{"Proto"};
const MofFieldId FailureCode{"FailureCode"};
} // namespace field

uint64_t ipinfo(const ArgContext &c) {
    const MofRecord &r = c.record;
    uint64_t address = 0;
    KernelRecord &ip = c.memory.record(address);
    ip[ip::ip_ver] = c.event.opcode >= kFirstIpv6Opcode ? 6 : 4;
    ip[ip::ip_plength] = r.u(field::size);
    ip[ip::ip_saddr] = c.memory.text(r.s(field::saddr));
    ip[ip::ip_daddr] = c.memory.text(r.s(field::daddr));
    ip[ip::ip_connid] = r.u(field::connid);
    ip[ip::ip_stime] = r.u(field::startime);
    ip[ip::ip_etime] = r.u(field::endtime);
    ip[ip::ip_size] = r.u(field::size);
    return address;
}

constexpr dtrace_arg_desc kTcp[] = {kernel_arg("etw_ipinfo_t *", 0, "ipinfo_t *"),
                                    kernel_arg("etw_tcpinfo_t *", 1, "tcpinfo_t *")};
size_t tcp(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    a[0] = ipinfo(c);
    uint64_t address = 0;
    KernelRecord &t = c.memory.record(address);
    t[tcp::tcp_sport] = r.u(field::sport);
    t[tcp::tcp_dport] = r.u(field::dport);
    t[tcp::tcp_seq] = r.u(field::seqnum);
    t[tcp::tcp_window] = r.u(field::rcvwin);
    t[tcp::tcp_mss] = r.u(field::mss);
    t[tcp::tcp_sackopt] = r.u(field::sackopt);
    t[tcp::tcp_tsopt] = r.u(field::tsopt);
    t[tcp::tcp_wsopt] = r.u(field::wsopt);
    t[tcp::tcp_rcvws] = r.u(field::rcvwinscale);
    t[tcp::tcp_sndws] = r.u(field::sndwinscale);
    a[1] = address;
    return 2;
}

constexpr dtrace_arg_desc kUdp[] = {kernel_arg("etw_udpinfo_t *", 0, "udpinfo_t *"),
                                    kernel_arg("etw_ipinfo_t *", 1, "ipinfo_t *")};
size_t udp(const ArgContext &c, KernelArgs &a) {
    const MofRecord &r = c.record;
    uint64_t address = 0;
    KernelRecord &u = c.memory.record(address);
    u[udp::udp_sport] = r.u(field::sport);
    u[udp::udp_dport] = r.u(field::dport);
    u[udp::udp_length] = r.u(field::size);
    a[0] = address;
    a[1] = ipinfo(c);
    return 2;
}

// tcpip:::fail, udpip:::fail: protocol, failure code.
constexpr dtrace_arg_desc kNetFail[] = {kernel_arg("uint16_t", 0), kernel_arg("uint16_t", 1)};
size_t net_fail(const ArgContext &c, KernelArgs &a) {
    a[0] = c.record.u(field::Proto);
    a[1] = c.record.u(field::FailureCode);
    return 2;
}

using K = KernelClass;
constexpr KernelProbe kTcpRows[] = {
    {"tcpip", "send", K::TcpIp, {10, 26}, kTcp, tcp, "PID", ""},
    {"tcpip", "receive", K::TcpIp, {11, 27}, kTcp, tcp, "PID", ""},
    {"tcpip", "connect", K::TcpIp, {12, 28}, kTcp, tcp, "PID", ""},
    {"tcpip", "disconnect", K::TcpIp, {13, 29}, kTcp, tcp, "PID", ""},
    {"tcpip", "retransmit", K::TcpIp, {14, 30}, kTcp, tcp, "PID", ""},
    {"tcpip", "accept", K::TcpIp, {15, 31}, kTcp, tcp, "PID", ""},
    {"tcpip", "reconnect", K::TcpIp, {16, 32}, kTcp, tcp, "PID", ""},
    {"tcpip", "fail", K::TcpIp, {17}, kNetFail, net_fail, "", ""},
    {"tcpip", "copy", K::TcpIp, {18, 34}, kTcp, tcp, "PID", ""},
};
constexpr KernelProbe kUdpRows[] = {
    {"udpip", "send", K::UdpIp, {10, 26}, kUdp, udp, "PID", ""},
    {"udpip", "receive", K::UdpIp, {11, 27}, kUdp, udp, "PID", ""},
    {"udpip", "fail", K::UdpIp, {17}, kNetFail, net_fail, "", ""},
};

} // namespace

std::span<const KernelProbe> tcpip_family() {
    return kTcpRows;
}

std::span<const KernelProbe> udpip_family() {
    return kUdpRows;
}

} // namespace dtrace::etw::plugin::kernel
