// packet_args.h: the arguments of ip, tcp and udp send and receive, per
// packet, from the headers the packet programs copy (bpf/sdt_packets.bpf.c):
// pktinfo_t, csinfo_t, ipinfo_t, then tcpsinfo_t and tcpinfo_t, or
// udpsinfo_t and udpinfo_t. family_net.cpp's send and receive rows use them.
//
// | member           | reads as                                                        |
// |------------------|-----------------------------------------------------------------|
// | ip_plength       | the IP payload: IPv4 total length less its header; IPv6 payload |
// | ip_saddr/daddr   | the packet's source and destination                             |
// | tcp_* / udp_*    | the header's fields, in host order; tcp_hdr points at the copy  |
// | tcps_* / udps_*  | the ends as the packet names them (local: the sender on send,   |
// |                  | the receiver on receive); tcps_state the socket's on send, 0    |
// |                  | (unknown) on receive, before the stack has found the socket     |
// | cs_pid           | the firing's pid: the sender on send; on receive whoever ran    |
// |                  | the network's softirq (often the sender, over loopback)        |
// | cs_addr, cs_cid  | the sending socket's address on send; 0 on receive             |
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "probe_family.h"

namespace dtrace::sdt {

// The IP and transport headers of one packet's copy.
struct PacketHeaders {
    uint64_t family = 0; // AF_INET, AF_INET6; 0: the copy is no IP header
    std::string source, destination;
    uint64_t payload_length = 0; // ip_plength
    uint8_t protocol = 0;        // IPv4's protocol, IPv6's first next header
    size_t transport_offset = 0; // of the TCP or UDP header in the copy
    std::span<const uint8_t> transport;
};
// Decodes the copy (bounds-checked: a short or malformed copy decodes as
// far as it goes).
PacketHeaders decode_packet(std::span<const uint8_t> copy);

size_t ip_send_packet(const ArgContext &c, ProbeArgs &a);
size_t ip_receive_packet(const ArgContext &c, ProbeArgs &a);
size_t tcp_send_packet(const ArgContext &c, ProbeArgs &a);
size_t tcp_receive_packet(const ArgContext &c, ProbeArgs &a);
size_t udp_send_packet(const ArgContext &c, ProbeArgs &a);
size_t udp_receive_packet(const ArgContext &c, ProbeArgs &a);

} // namespace dtrace::sdt
