// etw_trace_event_test.cpp: etw_trace()'s arguments to a TraceLogging event,
// and its schema as the plugin's own TraceLogging parser reads it back.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "etw_trace_event.h"
#include "reader/le_bytes.h"
#include "tracelogging_schema.h"

namespace dtrace::etw::plugin {
namespace {

dtrace_action_value text(const char *s) {
    return {sizeof(dtrace_action_value), DTRACE_VALUE_STRING, static_cast<uint32_t>(std::strlen(s)), 0, 0, s};
}

dtrace_action_value integer(uint64_t v) {
    return {sizeof(dtrace_action_value), DTRACE_VALUE_INTEGER, 8, 1, v, nullptr};
}

std::vector<dtrace_action_value> head() {
    return {text("My.Provider"), text("5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b"), text("Hello"), integer(4),
            integer(0x30)};
}

TEST(EtwTraceEvent, FieldsAreLaidOutAsTheirTypesSay) {
    std::vector<dtrace_action_value> args = head();
    for (dtrace_action_value v :
         {text("int16"), text("Small"), integer(0x12345), text("string"), text("Text"), text("hi"), text("wstring"),
          text("Wide"), text("\xc3\xa9"), text("bool"), text("Flag"), integer(7)}) {
        args.push_back(v);
    }
    Result<TraceLoggingEvent> event = etw_trace_event(args);
    ASSERT_TRUE(event) << event.error();
    EXPECT_EQ(event.value().provider, "My.Provider");
    EXPECT_EQ(event.value().guid.to_string(), "5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b");
    EXPECT_EQ(event.value().level, 4);
    EXPECT_EQ(event.value().keyword, 0x30u);
    const std::vector<uint8_t> expected = {0x45, 0x23, 'h', 'i', 0, 0xE9, 0, 0, 0, 1, 0, 0, 0};
    EXPECT_EQ(event.value().payload, expected) << "int16 truncated, UTF-8, UTF-16 (é), bool as 1";

    std::vector<uint8_t> schema_item = tracelogging_schema_item(event.value());
    EXPECT_EQ(load_u16(schema_item.data()), schema_item.size());
    std::optional<TraceLoggingSchema> schema = parse_tracelogging_schema(schema_item);
    ASSERT_TRUE(schema);
    EXPECT_EQ(schema->name, "Hello");
    ASSERT_EQ(schema->fields.size(), 4u);
    EXPECT_EQ(schema->fields[0].name, "Small");
    EXPECT_EQ(schema->fields[0].type, InType::Int16);
    EXPECT_EQ(schema->fields[1].type, InType::AnsiString);
    EXPECT_EQ(schema->fields[2].type, InType::UnicodeString);
    EXPECT_EQ(schema->fields[3].type, InType::Boolean);
}

TEST(EtwTraceEvent, BadArgumentsAreNamed) {
    auto error_of = [](std::vector<dtrace_action_value> args) {
        Result<TraceLoggingEvent> event = etw_trace_event(args);
        return event ? std::string("accepted") : event.error();
    };
    std::vector<dtrace_action_value> args = head();
    args[1] = text("nope");
    EXPECT_EQ(error_of(args), "argument #2: \"nope\" is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
    args = head();
    args[3] = integer(256);
    EXPECT_EQ(error_of(args), "argument #4: the level must be an integer from 0 to 255");
    args = head();
    args.insert(args.end(), {text("int128"), text("x"), integer(1)});
    EXPECT_EQ(error_of(args), "argument #6: unknown field type \"int128\" (int8 ... int64, uint8 ... uint64, hex32, "
                              "hex64, bool, string, wstring)");
    args = head();
    args.insert(args.end(), {text("int32"), text("x"), text("one")});
    EXPECT_EQ(error_of(args), "argument #8: a int32 field needs an integer value");
    args = head();
    args.push_back(text("int32"));
    EXPECT_EQ(error_of(args), "takes a provider, its GUID, an event name, a level and a keyword, then a type, a name "
                              "and a value for each field (6 arguments given)");
}

} // namespace
} // namespace dtrace::etw::plugin
