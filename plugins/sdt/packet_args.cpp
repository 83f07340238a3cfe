// packet_args.cpp: decoding a packet's headers, and the send/receive twins.
#include "packet_args.h"

#include "bpf/sdt_raw.h"
#include "net_records.h"

namespace dtrace::sdt {

namespace {

constexpr size_t kIpv4Header = 20, kIpv6Header = 40, kTcpHeader = 20, kUdpHeader = 8;

uint16_t be16(std::span<const uint8_t> b, size_t at) {
    return at + 2 <= b.size() ? static_cast<uint16_t>(b[at] << 8 | b[at + 1]) : 0;
}
uint32_t be32(std::span<const uint8_t> b, size_t at) {
    return at + 4 <= b.size() ? static_cast<uint32_t>(be16(b, at)) << 16 | be16(b, at + 2) : 0;
}

// The packet's ends as a connection: local is the sender on send.
Connection packet_connection(const ArgContext &c, const PacketHeaders &h, bool sent) {
    Connection k;
    k.family = h.family;
    k.local = sent ? h.source : h.destination;
    k.remote = sent ? h.destination : h.source;
    const uint16_t source_port = be16(h.transport, 0), destination_port = be16(h.transport, 2);
    k.local_port = sent ? source_port : destination_port;
    k.remote_port = sent ? destination_port : source_port;
    if (sent) { // the program read the sending socket (none on receive yet)
        k.socket = c.record.args[1];
        k.state = k.socket != 0 ? dtrace_state(c.record.args[2]) : 0;
    }
    return k;
}

// pktinfo_t (pkt_addr NULL, as DTrace has it), csinfo_t, ipinfo_t.
Connection common_args(const ArgContext &c, ProbeArgs &a, const PacketHeaders &h, bool sent) {
    Connection k = packet_connection(c, h, sent);
    c.memory.record(a[0]);
    a[1] = csinfo(c, k, c.record.pid);
    a[2] = ipinfo(c, k, sent, h.payload_length);
    return k;
}

size_t ip_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    common_args(c, a, decode_packet(c.raw.all()), sent);
    return 6; // ifinfo_t, ipv4info_t, ipv6info_t: NULL
}

size_t tcp_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    const PacketHeaders h = decode_packet(c.raw.all());
    const Connection k = common_args(c, a, h, sent);
    a[3] = tcpsinfo(c, k, false);
    Record &t = c.memory.record(a[4]);
    const std::span<const uint8_t> header = h.transport;
    t[tcp::tcp_sport] = be16(header, 0);
    t[tcp::tcp_dport] = be16(header, 2);
    t[tcp::tcp_seq] = be32(header, 4);
    t[tcp::tcp_ack] = be32(header, 8);
    t[tcp::tcp_offset] = header.size() >= kTcpHeader ? (header[12] >> 4) * 4u : 0;
    t[tcp::tcp_flags] = header.size() >= kTcpHeader ? header[13] : 0;
    t[tcp::tcp_window] = be16(header, 14);
    t[tcp::tcp_checksum] = be16(header, 16);
    t[tcp::tcp_urgent] = be16(header, 18);
    t[tcp::tcp_hdr] = header.size() >= kTcpHeader ? SDT_RAW_ADDRESS + h.transport_offset : 0;
    return 5;
}

size_t udp_args(const ArgContext &c, ProbeArgs &a, bool sent) {
    const PacketHeaders h = decode_packet(c.raw.all());
    const Connection k = common_args(c, a, h, sent);
    Record &s = c.memory.record(a[3]);
    s[udps::udps_addr] = k.socket;
    s[udps::udps_lport] = k.local_port;
    s[udps::udps_rport] = k.remote_port;
    s[udps::udps_laddr] = c.memory.text(k.local);
    s[udps::udps_raddr] = c.memory.text(k.remote);
    Record &u = c.memory.record(a[4]);
    u[udp::udp_sport] = be16(h.transport, 0);
    u[udp::udp_dport] = be16(h.transport, 2);
    u[udp::udp_length] = be16(h.transport, 4);
    u[udp::udp_checksum] = be16(h.transport, 6);
    return 5;
}

} // namespace

PacketHeaders decode_packet(std::span<const uint8_t> copy) {
    PacketHeaders h;
    if (copy.empty())
        return h;
    const uint8_t version = copy[0] >> 4;
    if (version == 4 && copy.size() >= kIpv4Header) {
        const size_t header = (copy[0] & 0xfu) * 4u;
        if (header < kIpv4Header)
            return h;
        h.family = kFamilyInet;
        const uint16_t total = be16(copy, 2);
        h.payload_length = total > header ? total - header : 0;
        h.protocol = copy[9];
        h.source = address_text(h.family, copy.subspan(12, 4));
        h.destination = address_text(h.family, copy.subspan(16, 4));
        h.transport_offset = header;
    } else if (version == 6 && copy.size() >= kIpv6Header) {
        h.family = kFamilyInet6;
        h.payload_length = be16(copy, 4);
        h.protocol = copy[6];
        h.source = address_text(h.family, copy.subspan(8, 16));
        h.destination = address_text(h.family, copy.subspan(24, 16));
        h.transport_offset = kIpv6Header;
    } else {
        return h;
    }
    if (h.transport_offset < copy.size())
        h.transport = copy.subspan(h.transport_offset);
    if (h.protocol == kProtocolUdp && h.transport.size() > kUdpHeader)
        h.transport = h.transport.first(kUdpHeader);
    return h;
}

size_t ip_send_packet(const ArgContext &c, ProbeArgs &a) {
    return ip_args(c, a, true);
}
size_t ip_receive_packet(const ArgContext &c, ProbeArgs &a) {
    return ip_args(c, a, false);
}
size_t tcp_send_packet(const ArgContext &c, ProbeArgs &a) {
    return tcp_args(c, a, true);
}
size_t tcp_receive_packet(const ArgContext &c, ProbeArgs &a) {
    return tcp_args(c, a, false);
}
size_t udp_send_packet(const ArgContext &c, ProbeArgs &a) {
    return udp_args(c, a, true);
}
size_t udp_receive_packet(const ArgContext &c, ProbeArgs &a) {
    return udp_args(c, a, false);
}

} // namespace dtrace::sdt
