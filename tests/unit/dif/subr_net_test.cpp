// inet_ntoa(), inet_ntoa6(), inet_ntop(): DTrace's formatting.
#include "dif_test_util.h"

#include <gtest/gtest.h>

#include <array>

namespace dtrace::dif {
namespace {

using test::Runner;

using V6 = std::array<uint8_t, 16>;

// Calls `name` with the address of `bytes` (declared readable), after an
// optional address family.
std::string format(Runner &r, std::string_view name, const uint8_t *bytes, size_t size, int family = -1) {
    r.vm.add_readable(bytes, size);
    std::string text;
    if (family >= 0)
        text += "setx %r2, " + std::to_string(family) + "\npushtv %r2, 8\n";
    text += "setx %r1, " + std::to_string(reinterpret_cast<uint64_t>(bytes)) + "\npushtv %r1, 8\n";
    text += "call %r3, " + std::string(name) + "\nret %r3";
    uint64_t a = r.run(text);
    return a ? r.string_at(a) : "<fault>";
}

std::string ntoa6(const V6 &a) {
    Runner r;
    return format(r, "inet_ntoa6", a.data(), a.size());
}

std::string ntop6(const V6 &a) {
    Runner r;
    return format(r, "inet_ntop", a.data(), a.size(), 26);
}

TEST(NetSubr, InetNtoa) {
    alignas(4) static const uint8_t ip[4] = {192, 168, 0, 10};
    Runner r;
    EXPECT_EQ(format(r, "inet_ntoa", ip, sizeof ip), "192.168.0.10");
    alignas(4) static const uint8_t zero[4] = {0, 0, 0, 0};
    EXPECT_EQ(format(r, "inet_ntoa", zero, sizeof zero), "0.0.0.0");
}

TEST(NetSubr, InetNtoaNeedsAnAlignedReadableAddress) {
    alignas(4) static const uint8_t ip[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    Runner r;
    format(r, "inet_ntoa", ip + 1, 4);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAlign);
    EXPECT_EQ(r.fault.address, reinterpret_cast<uint64_t>(ip + 1));
    r.run("setx %r1, 0x1000\npushtv %r1, 8\ncall %r2, inet_ntoa\nret %r2");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0x1000u);
}

TEST(NetSubr, Ipv6ZeroCompression) {
    EXPECT_EQ(ntoa6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x14, 0x4f, 0xff, 0xfe, 0x0b, 0x76, 0xc8}),
              "fe80::214:4fff:fe0b:76c8");
    EXPECT_EQ(ntoa6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}), "::1");
    EXPECT_EQ(ntoa6({}), "::");
    EXPECT_EQ(ntoa6({0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "1::");
    EXPECT_EQ(ntoa6({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}), "2001:db8::1");
    EXPECT_EQ(ntoa6({0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8}), "1:2:3:4:5:6:7:8");
}

// DTrace compresses a single zero group, leaves a final single one, and of
// two equally long runs compresses the later.
TEST(NetSubr, Ipv6CompressionFollowsDTrace) {
    EXPECT_EQ(ntoa6({0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7}), "1::2:3:4:5:6:7");
    EXPECT_EQ(ntoa6({0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0}), "1:2:3:4:5:6:7:0");
    EXPECT_EQ(ntoa6({0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3}), "1:0:0:2::3");
    EXPECT_EQ(ntoa6({0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}), "1:0:0:2::3:4");
}

TEST(NetSubr, EmbeddedIpv4) {
    V6 mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1};
    EXPECT_EQ(ntop6(mapped), "::ffff:127.0.0.1");
    EXPECT_EQ(ntoa6(mapped), "127.0.0.1");
    V6 compatible{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4};
    EXPECT_EQ(ntop6(compatible), "::1.2.3.4");
    EXPECT_EQ(ntoa6(compatible), "1.2.3.4");
    // A zero run reaching into the IPv4 part is not compressed (as in DTrace).
    EXPECT_EQ(ntop6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2}), "0:0:0:0:0:0:0.0.1.2");
}

TEST(NetSubr, InetNtopFamilies) {
    alignas(4) static const uint8_t ip[4] = {10, 0, 0, 1};
    Runner r;
    EXPECT_EQ(format(r, "inet_ntop", ip, sizeof ip, 2), "10.0.0.1");
    static const V6 loopback{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    EXPECT_EQ(format(r, "inet_ntop", loopback.data(), 16, 26), "::1"); // illumos AF_INET6
    EXPECT_EQ(format(r, "inet_ntop", loopback.data(), 16, 10), "::1"); // Linux AF_INET6
    format(r, "inet_ntop", ip, sizeof ip, 99);
    EXPECT_EQ(r.fault.kind, FaultKind::IllOp);
}

} // namespace
} // namespace dtrace::dif
