// net_records.cpp: connections and the ip/tcp twins built from them.
#include "net_records.h"

#include <arpa/inet.h>
#include <cstring>
#include <iterator>

namespace dtrace::sdt {

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
std::string address_text(uint64_t family, std::span<const uint8_t> bytes) {
    char text[INET6_ADDRSTRLEN] = {};
    const size_t needed = family == kFamilyInet ? 4 : family == kFamilyInet6 ? 16 : SIZE_MAX;
    if (bytes.size() < needed || inet_ntop(static_cast<int>(family), bytes.data(), text, sizeof text) == nullptr)
        return "<unknown>";
    return text;
}

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

} // namespace dtrace::sdt
