// field_types.cpp: the InType table.
#include "field_types.h"

#include <array>

namespace dtrace::etw::plugin {

namespace {

struct TypeRow {
    InType type;
    std::string_view name; // without the "win:" / "trace:" prefix
    TypeInfo info;
};

constexpr size_t kPointerSized = 0;
constexpr size_t kFileTimeSize = 8;
constexpr size_t kSystemTimeSize = 16;
constexpr size_t kGuidSize = 16;

// clang-format off
constexpr std::array<TypeRow, 28> kTypes = {{
    {InType::UnicodeString,     "UnicodeString",     {Layout::Utf16z, 0, false, true, "uintptr_t"}},
    {InType::AnsiString,        "AnsiString",        {Layout::Ansiz, 0, false, true, "uintptr_t"}},
    {InType::Int8,              "Int8",              {Layout::Fixed, 1, true, false, "int8_t"}},
    {InType::UInt8,             "UInt8",             {Layout::Fixed, 1, false, false, "uint8_t"}},
    {InType::Int16,             "Int16",             {Layout::Fixed, 2, true, false, "int16_t"}},
    {InType::UInt16,            "UInt16",            {Layout::Fixed, 2, false, false, "uint16_t"}},
    {InType::Int32,             "Int32",             {Layout::Fixed, 4, true, false, "int32_t"}},
    {InType::UInt32,            "UInt32",            {Layout::Fixed, 4, false, false, "uint32_t"}},
    {InType::Int64,             "Int64",             {Layout::Fixed, 8, true, false, "int64_t"}},
    {InType::UInt64,            "UInt64",            {Layout::Fixed, 8, false, false, "uint64_t"}},
    {InType::Float,             "Float",             {Layout::Fixed, 4, false, false, "float"}},
    {InType::Double,            "Double",            {Layout::Fixed, 8, false, false, "double"}},
    {InType::Boolean,           "Boolean",           {Layout::Fixed, 4, false, false, "int32_t"}},
    {InType::Binary,            "Binary",            {Layout::LengthBytes, 0, false, true, "uintptr_t"}},
    {InType::Guid,              "GUID",              {Layout::Fixed, kGuidSize, false, true, "uintptr_t"}},
    {InType::Pointer,           "Pointer",           {Layout::Fixed, kPointerSized, false, false, "uintptr_t"}},
    {InType::FileTime,          "FILETIME",          {Layout::Fixed, kFileTimeSize, false, false, "uint64_t"}},
    {InType::SystemTime,        "SYSTEMTIME",        {Layout::Fixed, kSystemTimeSize, false, true, "uintptr_t"}},
    {InType::Sid,               "SID",               {Layout::Sid, 0, false, true, "uintptr_t"}},
    {InType::HexInt32,          "HexInt32",          {Layout::Fixed, 4, false, false, "uint32_t"}},
    {InType::HexInt64,          "HexInt64",          {Layout::Fixed, 8, false, false, "uint64_t"}},
    {InType::CountedString,     "CountedString",     {Layout::Counted16, 0, false, true, "uintptr_t"}},
    {InType::CountedAnsiString, "CountedAnsiString", {Layout::CountedAnsi, 0, false, true, "uintptr_t"}},
    {InType::UnicodeChar,       "UnicodeChar",       {Layout::Fixed, 2, false, false, "uint16_t"}},
    {InType::AnsiChar,          "AnsiChar",          {Layout::Fixed, 1, false, false, "char"}},
    {InType::SizeT,             "SizeT",             {Layout::Fixed, kPointerSized, false, false, "size_t"}},
    {InType::HexDump,           "HexDump",           {Layout::U32CountedBytes, 0, false, true, "uintptr_t"}},
    {InType::CountedBinary,     "CountedBinary",     {Layout::CountedBytes, 0, false, true, "uintptr_t"}},
}};
// clang-format on

constexpr std::array<std::string_view, 2> kPrefixes = {"win:", "trace:"};

} // namespace

std::optional<InType> in_type_from_name(std::string_view name) {
    for (std::string_view prefix : kPrefixes) {
        if (name.substr(0, prefix.size()) == prefix) {
            name.remove_prefix(prefix.size());
            break;
        }
    }
    for (const TypeRow &row : kTypes) {
        if (row.name == name) {
            return row.type;
        }
    }
    return std::nullopt;
}

const TypeInfo *type_info(InType type) {
    for (const TypeRow &row : kTypes) {
        if (row.type == type) {
            return &row.info;
        }
    }
    return nullptr;
}

} // namespace dtrace::etw::plugin
