// subr_json.cpp: json(text, path), DTrace's selector over a JSON document.
//
// The path names object members and array elements: "a.b[2].c". The result
// is the selected value's text: a string without its quotes (the escapes \"
// \\ and \/ decoded, others kept as written), a number, true, false or null
// as written, an object or array as its JSON text. A path that selects
// nothing, or a document that is not JSON, gives NULL.
#include "dif/subr_impl.h"

#include <cctype>
#include <optional>
#include <string>

namespace dtrace::dif::subr {

namespace {

// Bounds the nesting walked, so that a deep document costs no deep stack.
constexpr int kMaxDepth = 64;

class JsonReader {
  public:
    explicit JsonReader(std::string_view text) : s_(text) {}

    // Moves past one value; false if it is not well formed.
    bool skip_value(int depth = 0) {
        blanks();
        if (depth > kMaxDepth || at_end())
            return false;
        char c = s_[pos_];
        if (c == '"')
            return skip_string();
        if (c == '{' || c == '[')
            return skip_container(c == '{' ? '}' : ']', c == '{', depth);
        size_t start = pos_;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' || s_[pos_] == '+' ||
                             s_[pos_] == '.'))
            ++pos_;
        return pos_ > start;
    }

    // Within an object (at its '{'), moves to the value of member `name`.
    bool find_member(std::string_view name) {
        if (!consume('{'))
            return false;
        for (bool first = true;; first = false) {
            blanks();
            if (consume('}') || (!first && !consume(',')))
                return false;
            blanks();
            size_t key_start = pos_ + 1;
            if (at_end() || s_[pos_] != '"' || !skip_string())
                return false;
            std::string_view key = s_.substr(key_start, pos_ - 1 - key_start);
            blanks();
            if (!consume(':'))
                return false;
            if (key == name) {
                blanks();
                return true;
            }
            if (!skip_value())
                return false;
        }
    }

    // Within an array (at its '['), moves to element `index`.
    bool find_element(uint64_t index) {
        if (!consume('['))
            return false;
        for (uint64_t i = 0;; i++) {
            blanks();
            if (at_end() || s_[pos_] == ']')
                return false;
            if (i == index)
                return true;
            if (!skip_value())
                return false;
            blanks();
            if (!consume(','))
                return false;
        }
    }

    // The text of the value here (see the file comment).
    std::optional<std::string> value() {
        blanks();
        size_t start = pos_;
        if (!skip_value())
            return std::nullopt;
        std::string_view raw = s_.substr(start, pos_ - start);
        if (raw.front() != '"')
            return std::string(raw);
        std::string out;
        for (size_t i = 1; i + 1 < raw.size(); i++) {
            if (raw[i] == '\\' && (raw[i + 1] == '"' || raw[i + 1] == '\\' || raw[i + 1] == '/'))
                ++i;
            out += raw[i];
        }
        return out;
    }

  private:
    bool at_end() const { return pos_ >= s_.size(); }
    void blanks() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    bool consume(char c) {
        if (at_end() || s_[pos_] != c)
            return false;
        ++pos_;
        return true;
    }
    bool skip_string() {
        for (++pos_; !at_end(); ++pos_) {
            if (s_[pos_] == '\\')
                ++pos_;
            else if (s_[pos_] == '"')
                return ++pos_, true;
        }
        return false;
    }
    bool skip_container(char close, bool object, int depth) {
        ++pos_;
        blanks();
        if (consume(close))
            return true;
        for (;;) {
            if (object) {
                blanks();
                if (at_end() || s_[pos_] != '"' || !skip_string())
                    return false;
                blanks();
                if (!consume(':'))
                    return false;
            }
            if (!skip_value(depth + 1))
                return false;
            blanks();
            if (consume(close))
                return true;
            if (!consume(','))
                return false;
        }
    }

    std::string_view s_;
    size_t pos_ = 0;
};

// Follows `path` ("a.b[2]") from the document's top.
bool select(JsonReader &r, std::string_view path) {
    size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            ++i;
            continue;
        }
        if (path[i] == '[') {
            size_t close = path.find(']', i);
            if (close == std::string_view::npos || close == i + 1)
                return false;
            uint64_t index = 0;
            for (size_t k = i + 1; k < close; k++) {
                if (!std::isdigit(static_cast<unsigned char>(path[k])))
                    return false;
                index = index * 10 + uint64_t(path[k] - '0');
            }
            if (!r.find_element(index))
                return false;
            i = close + 1;
            continue;
        }
        size_t end = path.find_first_of(".[", i);
        if (end == std::string_view::npos)
            end = path.size();
        if (!r.find_member(path.substr(i, end - i)))
            return false;
        i = end;
    }
    return true;
}

} // namespace

uint64_t json(SubrContext &ctx, Args args) {
    auto text = ctx.string(args[0]);
    if (!text)
        return 0;
    auto path = ctx.string(args[1]);
    if (!path)
        return 0;
    JsonReader whole(*text);
    if (!whole.skip_value())
        return 0; // not a JSON document
    JsonReader r(*text);
    if (!select(r, *path))
        return 0;
    std::optional<std::string> v = r.value();
    return v ? ctx.result_string(*v) : 0;
}

} // namespace dtrace::dif::subr
