// net_records.h: what the ip, tcp and udp probes build alike, per packet
// (packet_args.h) or per connection event (family_net.cpp): a connection's
// two ends, and the csinfo_t, ipinfo_t, tcpsinfo_t and tcpinfo_t twins
// (sdt_library.h) made from them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <sys/socket.h>

#include "probe_family.h"

namespace dtrace::sdt {

inline constexpr uint64_t kFamilyInet = AF_INET, kFamilyInet6 = AF_INET6;
inline constexpr uint64_t kProtocolTcp = 6, kProtocolUdp = 17;

// Linux's TCP state (include/net/tcp_states.h) as DTrace's TCP_STATE_*.
int32_t dtrace_state(uint64_t linux_state);

// The address in `bytes` as text; "<unknown>" when there are too few bytes
// for the family (as a format file that disagrees with the record may give).
std::string address_text(uint64_t family, std::span<const uint8_t> bytes);

// One connection's ends, as the event tells them.
struct Connection {
    uint64_t socket = 0;
    uint64_t family = 0;
    std::string local, remote;
    uint16_t local_port = 0, remote_port = 0;
    int32_t state = 0; // DTrace's
};

// The twins, in the firing's record memory; each returns its address.
uint64_t csinfo(const ArgContext &c, const Connection &k, int64_t pid);
// ip_saddr is the local end when `sent`.
uint64_t ipinfo(const ArgContext &c, const Connection &k, bool sent, uint64_t length);
uint64_t tcpsinfo(const ArgContext &c, const Connection &k, bool active);
// The ports only (a connection event has no segment).
uint64_t tcpinfo(const ArgContext &c, const Connection &k, bool sent);

} // namespace dtrace::sdt
