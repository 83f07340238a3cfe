// packet_args_test.cpp: decoding a packet's copied headers and the
// per-packet tcp and udp arguments built from them, for well-formed and
// cut or malformed copies.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "bpf/sdt_raw.h"
#include "packet_args.h"

namespace dtrace::sdt {
namespace {

// An IPv4 header (20 bytes, 127.0.0.1 to 127.0.0.2) with `protocol`, then `transport`.
std::vector<uint8_t> ipv4(uint8_t protocol, std::vector<uint8_t> transport, uint16_t payload) {
    const uint16_t total = static_cast<uint16_t>(20 + payload);
    const uint8_t header[] = {0x45,
                              0,
                              static_cast<uint8_t>(total >> 8),
                              static_cast<uint8_t>(total),
                              0,
                              0,
                              0x40,
                              0,
                              64,
                              protocol,
                              0,
                              0,
                              127,
                              0,
                              0,
                              1,
                              127,
                              0,
                              0,
                              2};
    transport.insert(transport.begin(), std::begin(header), std::end(header));
    return transport;
}

// A TCP header from port 1000 to 2000: seq 0x01020304, ack 0x0a0b0c0d,
// 32-byte header, SYN|ACK, window 512, checksum 0xbeef, urgent 7.
const std::vector<uint8_t> kTcp = {0x03, 0xe8, 0x07, 0xd0, 1, 2, 3, 4,  0x0a, 0x0b, 0x0c, 0x0d, 0x80, 0x12, 0x02, 0x00,
                                   0xbe, 0xef, 0,    7,    1, 1, 8, 10, 0,    0,    0,    0,    0,    0,    0,    0};

struct Firing {
    live_record record{};
    RecordMemory memory;
    OtherThread other;
    ProbeArgs args{};

    // Reads 64-bit slot `member` of the record at args[index].
    uint64_t member(size_t index, uint8_t member) {
        uint64_t value = 0;
        EXPECT_EQ(memory.read(args[index] + member * 8u, &value, sizeof value), 8);
        return value;
    }
    std::string text(size_t index, uint8_t member) {
        char buffer[64] = {};
        memory.read(this->member(index, member), buffer, sizeof buffer - 1);
        return buffer;
    }
};

TEST(PacketArgs, DecodesIpv4AndTcp) {
    const std::vector<uint8_t> copy = ipv4(6, kTcp, 32 + 100);
    const PacketHeaders h = decode_packet(copy);
    EXPECT_EQ(h.payload_length, 132u);
    EXPECT_EQ(h.source, "127.0.0.1");
    EXPECT_EQ(h.destination, "127.0.0.2");
    EXPECT_EQ(h.transport_offset, 20u);

    Firing f;
    f.record.pid = 42;
    const RawRecord raw(copy);
    const ArgContext context{f.record, raw, {}, f.memory, f.other};
    ASSERT_EQ(tcp_receive_packet(context, f.args), 5u);
    EXPECT_EQ(f.member(2, ip::ip_plength), 132u);
    EXPECT_EQ(f.text(2, ip::ip_saddr), "127.0.0.1");
    EXPECT_EQ(f.member(4, tcp::tcp_sport), 1000u);
    EXPECT_EQ(f.member(4, tcp::tcp_dport), 2000u);
    EXPECT_EQ(f.member(4, tcp::tcp_seq), 0x01020304u);
    EXPECT_EQ(f.member(4, tcp::tcp_ack), 0x0a0b0c0du);
    EXPECT_EQ(f.member(4, tcp::tcp_offset), 32u);
    EXPECT_EQ(f.member(4, tcp::tcp_flags), 0x12u);
    EXPECT_EQ(f.member(4, tcp::tcp_window), 512u);
    EXPECT_EQ(f.member(4, tcp::tcp_checksum), 0xbeefu);
    EXPECT_EQ(f.member(4, tcp::tcp_urgent), 7u);
    EXPECT_EQ(f.member(4, tcp::tcp_hdr), SDT_RAW_ADDRESS + 20);
    // On receive, the local end is the destination.
    EXPECT_EQ(f.member(3, tcps::tcps_lport), 2000u);
    EXPECT_EQ(f.text(3, tcps::tcps_raddr), "127.0.0.1");
    EXPECT_EQ(f.member(1, cs::cs_pid), 42u);
}

TEST(PacketArgs, DecodesUdpOverIpv6) {
    std::vector<uint8_t> copy(40, 0);
    copy[0] = 0x60;
    copy[4] = (8 + 300) >> 8; // payload length
    copy[5] = (8 + 300) & 0xff;
    copy[6] = 17;
    copy[23] = 1; // ::1
    copy[39] = 1;
    const std::vector<uint8_t> udp = {0x13, 0x88, 0x00, 0x35, 0x01, 0x34, 0, 0};
    copy.insert(copy.end(), udp.begin(), udp.end());
    Firing f;
    const RawRecord raw(copy);
    const ArgContext context{f.record, raw, {}, f.memory, f.other};
    ASSERT_EQ(udp_send_packet(context, f.args), 5u);
    EXPECT_EQ(f.member(2, ip::ip_ver), 6u);
    EXPECT_EQ(f.member(2, ip::ip_plength), 308u);
    EXPECT_EQ(f.text(2, ip::ip_daddr), "::1");
    EXPECT_EQ(f.member(4, udp::udp_sport), 5000u);
    EXPECT_EQ(f.member(4, udp::udp_dport), 53u);
    EXPECT_EQ(f.member(4, udp::udp_length), 308u);
    EXPECT_EQ(f.member(3, udps::udps_lport), 5000u); // on send, the local end is the source
}

TEST(PacketArgs, ACutOrMalformedCopyDecodesAsFarAsItGoes) {
    EXPECT_EQ(decode_packet({}).family, 0u);
    std::vector<uint8_t> copy = ipv4(6, kTcp, 32);
    copy[0] = 0x41; // a header length below 20 bytes
    EXPECT_EQ(decode_packet(copy).family, 0u);
    copy = ipv4(6, {0x03, 0xe8, 0x07}, 0); // a TCP header of 3 bytes
    Firing f;
    const RawRecord raw(copy);
    const ArgContext context{f.record, raw, {}, f.memory, f.other};
    ASSERT_EQ(tcp_send_packet(context, f.args), 5u);
    EXPECT_EQ(f.member(4, tcp::tcp_sport), 1000u);
    EXPECT_EQ(f.member(4, tcp::tcp_dport), 0u); // cut
    EXPECT_EQ(f.member(4, tcp::tcp_hdr), 0u);
    EXPECT_EQ(f.member(2, ip::ip_plength), 0u); // total length = the header
    copy.resize(12);                            // not even an IP header
    EXPECT_EQ(decode_packet(copy).family, 0u);
}

} // namespace
} // namespace dtrace::sdt
