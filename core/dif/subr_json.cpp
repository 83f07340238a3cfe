// subr_json.cpp: json(text, selector), DTrace's selector over a JSON document.
//
// The selector names object members and array elements: "a.b[2].c" (a
// leading "[n]" indexes a top-level array). As DTrace does, the document is
// read once, left to right, by a small state machine that stops at the value
// selected, so nothing after it is checked, and what it skips is checked
// only as far as that machine looks. The result is the value's text as
// written: a string without its quotes but with its escapes as written
// (a\"b stays a\"b), a number, true, false or null, an object or array as its
// JSON text. A selector that selects nothing, a value of the wrong kind on
// the way (a number where the selector goes on), or a document the machine
// refuses gives NULL.
#include "dif/subr_impl.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::dif::subr {

namespace {

// "a.b[2].c" as DTrace splits it: a leading '[' and every ']' dropped, '.'
// and '[' separating the keys. {"a", "b", "2", "c"}.
std::vector<std::string> selector_keys(std::string_view selector) {
    std::vector<std::string> keys(1);
    for (size_t i = 0; i < selector.size(); i++) {
        const char c = selector[i];
        if ((i == 0 && c == '[') || c == ']')
            continue;
        if (c == '.' || c == '[')
            keys.emplace_back();
        else
            keys.back() += c;
    }
    return keys;
}

// An array index as DTrace's dtrace_strtoll() reads it: blanks, a sign, then
// decimal digits up to the first other character ("x" is 0).
int64_t array_index(std::string_view key) {
    size_t i = 0;
    while (i < key.size() && (key[i] == ' ' || key[i] == '\t'))
        i++;
    bool negative = false;
    if (i < key.size() && (key[i] == '-' || key[i] == '+'))
        negative = key[i++] == '-';
    uint64_t value = 0;
    for (; i < key.size() && std::isdigit(static_cast<unsigned char>(key[i])); i++)
        value = value * 10 + static_cast<uint64_t>(key[i] - '0'); // wraps as DTrace's int64_t does
    return static_cast<int64_t>(negative ? 0 - value : value);
}

bool is_blank(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

class JsonSelector {
  public:
    explicit JsonSelector(std::vector<std::string> keys) : keys_(std::move(keys)) {}

    // The selected value's text, or nullopt.
    std::optional<std::string> select(std::string_view doc);

  private:
    enum class State {
        Start,         // before the top-level object or array
        Object,        // expecting a member's key
        String,        // within a string (a key, a value, or a string in a collected object)
        Escape,        // after a backslash
        Unicode,       // within \uXXXX
        Colon,         // after a key
        Comma,         // after a value
        Word,          // true, false or null
        Number,        // integer part
        Fraction,      // after '.'
        Exponent,      // after 'e'
        Value,         // expecting a value
        CollectObject, // copying an object or array, as the result or to skip it
    };
    enum class Step { Next, Again, Fail, Done };

    Step step(char c);
    Step enter_array() {
        in_array_ = true;
        array_position_ = 0;
        array_wanted_ = array_index(keys_[key_]);
        found_ = array_wanted_ == 0;
        state_ = State::Value;
        return Step::Next;
    }
    // A scalar value ended: the result if it is the one selected (and the
    // selector ends here), else the machine goes on after it.
    Step scalar_ended() {
        if (!found_) {
            text_.clear();
            state_ = State::Comma;
            return Step::Again;
        }
        return keys_.size() - key_ > 1 ? Step::Fail : Step::Done;
    }

    std::vector<std::string> keys_;
    size_t key_ = 0; // the selector key being matched
    State state_ = State::Start;
    std::string text_; // the string, number, word or object being read
    bool string_is_key_ = false;
    bool in_collected_object_ = false;
    bool found_ = false; // the value about to be read is the selected one
    bool in_array_ = false;
    int64_t array_wanted_ = 0;
    int64_t array_position_ = 0;
    int unicode_digits_ = 0;
    uint32_t braces_ = 0, brackets_ = 0;
};

std::optional<std::string> JsonSelector::select(std::string_view doc) {
    for (size_t i = 0; i < doc.size(); i++) {
        for (;;) {
            const Step s = step(doc[i]);
            if (s == Step::Again)
                continue; // the character ended a value and is read again
            if (s == Step::Fail)
                return std::nullopt;
            if (s == Step::Done)
                return text_;
            break;
        }
    }
    return std::nullopt; // the document ended first
}

JsonSelector::Step JsonSelector::step(char c) {
    switch (state_) {
    case State::Start:
        if (is_blank(c))
            return Step::Next;
        if (c == '{') {
            state_ = State::Object;
            return Step::Next;
        }
        return c == '[' ? enter_array() : Step::Fail;
    case State::Object:
        if (is_blank(c))
            return Step::Next;
        if (c != '"')
            return Step::Fail; // not a key, or the object ended without the key
        state_ = State::String;
        string_is_key_ = true;
        return Step::Next;
    case State::String:
        if (c == '\\') {
            text_ += c;
            state_ = State::Escape;
            return Step::Next;
        }
        if (c != '"') {
            text_ += c;
            return Step::Next;
        }
        if (in_collected_object_) {
            text_ += c;
            in_collected_object_ = false;
            state_ = State::CollectObject;
            return Step::Next;
        }
        if (string_is_key_) {
            found_ = found_ || text_ == keys_[key_];
        } else if (found_) {
            return keys_.size() - key_ > 1 ? Step::Fail : Step::Done;
        }
        state_ = string_is_key_ ? State::Colon : State::Comma;
        string_is_key_ = false;
        text_.clear();
        return Step::Next;
    case State::Escape:
        text_ += c;
        unicode_digits_ = 0;
        state_ = c == 'u' ? State::Unicode : State::String;
        return Step::Next;
    case State::Unicode:
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return Step::Fail;
        text_ += c;
        if (++unicode_digits_ == 4)
            state_ = State::String;
        return Step::Next;
    case State::Colon:
        if (is_blank(c))
            return Step::Next;
        if (c != ':')
            return Step::Fail;
        state_ = State::Value;
        return Step::Next;
    case State::Comma:
        if (is_blank(c))
            return Step::Next;
        if (c != ',')
            return Step::Fail; // the object or array ended without the selected value
        if (!in_array_) {
            state_ = State::Object;
            return Step::Next;
        }
        state_ = State::Value;
        if (++array_position_ == array_wanted_)
            found_ = true;
        return Step::Next;
    case State::Word:
        if (std::islower(static_cast<unsigned char>(c))) {
            text_ += c;
            return Step::Next;
        }
        if (text_ != "true" && text_ != "false" && text_ != "null")
            return Step::Fail;
        return scalar_ended();
    case State::Number:
        if (c == '.') {
            text_ += c;
            state_ = State::Fraction;
            return Step::Next;
        }
        if (c == 'x' || c == 'X')
            return Step::Fail; // no hexadecimal or octal numbers
        [[fallthrough]];
    case State::Fraction:
        if (c == 'e' || c == 'E') {
            text_ += c;
            state_ = State::Exponent;
            return Step::Next;
        }
        if (c == '+' || c == '-')
            return Step::Fail; // a sign belongs to the exponent only
        [[fallthrough]];
    case State::Exponent:
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-') {
            text_ += c;
            return Step::Next;
        }
        return scalar_ended();
    case State::Value:
        if (is_blank(c))
            return Step::Next;
        if (c == '{' || c == '[') {
            if (found_ && keys_.size() - key_ > 1) {
                // The selector goes into this object or array: its next key.
                key_++;
                text_.clear();
                if (c == '[')
                    return enter_array();
                in_array_ = false;
                found_ = false;
                state_ = State::Object;
                return Step::Next;
            }
            // Skipped, or the result: copied whole.
            (c == '[' ? brackets_ : braces_) = 1;
            text_ += c;
            state_ = State::CollectObject;
            return Step::Next;
        }
        if (c == '"') {
            state_ = State::String;
            return Step::Next;
        }
        if (std::islower(static_cast<unsigned char>(c))) {
            text_ += c;
            state_ = State::Word;
            return Step::Next;
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            text_ += c;
            state_ = State::Number;
            return Step::Next;
        }
        return Step::Fail;
    case State::CollectObject:
        text_ += c;
        if (c == '"') {
            in_collected_object_ = true;
            state_ = State::String;
            return Step::Next;
        }
        if (c == ']' && brackets_-- == 0)
            return Step::Fail;
        if (c == '}' && braces_-- == 0)
            return Step::Fail;
        if (c == '{')
            braces_++;
        else if (c == '[')
            brackets_++;
        if (brackets_ != 0 || braces_ != 0)
            return Step::Next;
        if (found_)
            return Step::Done;
        text_.clear();
        state_ = State::Comma;
        return Step::Next;
    }
    return Step::Fail;
}

} // namespace

uint64_t json(SubrContext &ctx, Args args) {
    auto doc = ctx.string(args[0]);
    if (!doc)
        return 0;
    auto selector = ctx.string(args[1]);
    if (!selector)
        return 0;
    JsonSelector machine(selector_keys(*selector));
    std::optional<std::string> value = machine.select(*doc);
    return value ? ctx.result_string(*value) : 0;
}

} // namespace dtrace::dif::subr
