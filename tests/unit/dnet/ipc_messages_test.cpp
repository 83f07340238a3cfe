// ipc_messages_test.cpp: the diagnostics IPC commands, byte for byte.
#include <gtest/gtest.h>

#include "ipc_messages.h"

namespace dtrace::dnet::ipc {
namespace {

std::vector<uint8_t> utf16(const std::string &ascii) {
    std::vector<uint8_t> out;
    for (char c : ascii) {
        out.push_back(static_cast<uint8_t>(c));
        out.push_back(0);
    }
    out.push_back(0);
    out.push_back(0);
    return out;
}

void append(std::vector<uint8_t> &out, uint64_t v, int n) {
    for (int i = 0; i < n; i++)
        out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

TEST(IpcMessages, CollectTracing2CarriesTheProvidersAsTheProtocolSpellsThem) {
    const ProviderConfig providers[] = {{0x4c14fccbd, 5, "Microsoft-Windows-DotNETRuntime", ""},
                                        {0, 4, "Demo", "Key=Value"}};
    const std::vector<uint8_t> message = collect_tracing2(256, true, providers);

    std::vector<uint8_t> payload;
    append(payload, 256, 4); // buffer MB
    append(payload, 1, 4);   // nettrace
    payload.push_back(1);    // rundown
    append(payload, 2, 4);   // providers
    append(payload, 0x4c14fccbd, 8);
    append(payload, 5, 4);
    append(payload, 32, 4); // "Microsoft-Windows-DotNETRuntime" and its NUL
    const std::vector<uint8_t> runtime = utf16("Microsoft-Windows-DotNETRuntime");
    payload.insert(payload.end(), runtime.begin(), runtime.end());
    append(payload, 0, 4); // no arguments
    append(payload, 0, 8);
    append(payload, 4, 4);
    append(payload, 5, 4);
    const std::vector<uint8_t> demo = utf16("Demo");
    payload.insert(payload.end(), demo.begin(), demo.end());
    append(payload, 10, 4);
    const std::vector<uint8_t> arguments = utf16("Key=Value");
    payload.insert(payload.end(), arguments.begin(), arguments.end());

    ASSERT_EQ(message.size(), kHeaderSize + payload.size());
    EXPECT_EQ(std::string(message.begin(), message.begin() + 14), std::string("DOTNET_IPC_V1\0", 14));
    const std::optional<Header> header = parse_header(message);
    ASSERT_TRUE(header.has_value());
    EXPECT_EQ(header->size, message.size());
    EXPECT_EQ(header->command_set, kEventPipeCommandSet);
    EXPECT_EQ(header->command_id, kCollectTracing2);
    EXPECT_EQ(std::vector<uint8_t>(message.begin() + kHeaderSize, message.end()), payload);
}

TEST(IpcMessages, StopTracingNamesTheSession) {
    const std::vector<uint8_t> message = stop_tracing(0x0102030405060708);
    ASSERT_EQ(message.size(), kHeaderSize + 8);
    EXPECT_EQ(parse_header(message)->command_id, kStopTracing);
    EXPECT_EQ(std::vector<uint8_t>(message.begin() + kHeaderSize, message.end()),
              (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST(IpcMessages, AHeaderWithoutTheMagicIsRefused) {
    std::vector<uint8_t> message = stop_tracing(1);
    message[3] = 'X';
    EXPECT_FALSE(parse_header(message).has_value());
    EXPECT_FALSE(parse_header(std::span<const uint8_t>(stop_tracing(1)).first(10)).has_value());
}

TEST(IpcMessages, ResumeRuntimeIsAHeaderOfTheProcessSet) {
    const std::vector<uint8_t> message = resume_runtime();
    ASSERT_EQ(message.size(), kHeaderSize);
    EXPECT_EQ(parse_header(message)->size, kHeaderSize);
    EXPECT_EQ(parse_header(message)->command_set, 0x04);
    EXPECT_EQ(parse_header(message)->command_id, 0x01);
}

TEST(IpcMessages, AnAdvertiseNamesTheRuntimesPidAndCookie) {
    std::vector<uint8_t> bytes = {'A', 'D', 'V', 'R', '_', 'V', '1', 0};
    for (uint8_t i = 0; i < 16; i++)
        bytes.push_back(i);
    append(bytes, 0x1234567, 8);
    append(bytes, 0, 2);
    ASSERT_EQ(bytes.size(), kAdvertiseSize);
    const std::optional<Advertise> advertise = parse_advertise(bytes);
    ASSERT_TRUE(advertise.has_value());
    EXPECT_EQ(advertise->pid, 0x1234567u);
    EXPECT_EQ(advertise->cookie[15], 15);
    bytes[0] = 'X';
    EXPECT_FALSE(parse_advertise(bytes).has_value());
    EXPECT_FALSE(parse_advertise(std::span<const uint8_t>(bytes).first(20)).has_value());
}

TEST(IpcMessages, ErrorsAreNamed) {
    EXPECT_EQ(describe_hresult(0x80131385), "the runtime does not know the command (DS_IPC_E_UNKNOWN_COMMAND)");
    EXPECT_EQ(describe_hresult(0x80004005), "the runtime refused the command (HRESULT 0x80004005)");
}

} // namespace
} // namespace dtrace::dnet::ipc
