// tracepoint_format.cpp: the `format` file parser.
#include "tracepoint_format.h"

#include <charconv>

namespace dtrace::live {

namespace {

constexpr std::string_view kCommonPrefix = "common_";

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool parse_number(std::string_view text, uint32_t &out) {
    text = trim(text);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

// "key:value;" at the start of `rest`: the value, and rest moved past it.
bool take_item(std::string_view &rest, std::string_view key, std::string_view &value) {
    rest = trim(rest);
    if (rest.substr(0, key.size()) != key || rest.size() <= key.size() || rest[key.size()] != ':')
        return false;
    rest.remove_prefix(key.size() + 1);
    size_t semi = rest.find(';');
    if (semi == std::string_view::npos)
        return false;
    value = rest.substr(0, semi);
    rest.remove_prefix(semi + 1);
    return true;
}

bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// "const char * filename" -> type "const char *", name "filename";
// "char comm[16]" -> type "char [16]", name "comm".
bool split_declaration(std::string_view decl, TracepointField &field) {
    decl = trim(decl);
    std::string_view array;
    if (!decl.empty() && decl.back() == ']') {
        size_t open = decl.rfind('[');
        if (open == std::string_view::npos)
            return false;
        array = decl.substr(open);
        decl = trim(decl.substr(0, open));
    }
    size_t start = decl.size();
    while (start > 0 && is_identifier_char(decl[start - 1]))
        --start;
    if (start == decl.size() || start == 0)
        return false;
    field.name = std::string(decl.substr(start));
    field.type = std::string(trim(decl.substr(0, start)));
    if (!array.empty())
        field.type += " " + std::string(array);
    return !field.type.empty();
}

} // namespace

std::vector<const TracepointField *> TracepointFormat::event_fields() const {
    std::vector<const TracepointField *> out;
    for (const TracepointField &f : fields) {
        if (!f.common)
            out.push_back(&f);
    }
    return out;
}

Result<TracepointFormat> parse_tracepoint_format(std::string_view text) {
    TracepointFormat format;
    bool have_id = false;
    size_t line_number = 0;
    while (!text.empty()) {
        size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        ++line_number;
        std::string_view rest = trim(line);
        auto bad = [&](const char *what) { return Error{"format line " + std::to_string(line_number) + ": " + what}; };
        if (rest.starts_with("name:")) {
            format.name = std::string(trim(rest.substr(5)));
        } else if (rest.starts_with("ID:")) {
            if (!parse_number(rest.substr(3), format.id))
                return bad("ID is not a number");
            have_id = true;
        } else if (rest.starts_with("field:")) {
            TracepointField field;
            std::string_view decl, offset, size, is_signed;
            if (!take_item(rest, "field", decl) || !take_item(rest, "offset", offset) ||
                !take_item(rest, "size", size) || !take_item(rest, "signed", is_signed))
                return bad("a field line without field:, offset:, size: and signed:");
            uint32_t signed_flag = 0;
            if (!split_declaration(decl, field) || !parse_number(offset, field.offset) ||
                !parse_number(size, field.size) || !parse_number(is_signed, signed_flag) || signed_flag > 1)
                return bad("a field that does not parse");
            field.is_signed = signed_flag == 1;
            field.common = field.name.starts_with(kCommonPrefix);
            format.fields.push_back(std::move(field));
        }
        // "format:", blank lines and "print fmt:" carry nothing we use.
    }
    if (format.name.empty() || !have_id)
        return Error{"format without a name: or ID: line"};
    return format;
}

} // namespace dtrace::live
