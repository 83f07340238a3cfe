// stack_format.cpp: stack() and ustack() records (see stack_format.h).
#include "consumer/stack_format.h"

#include "consumer/symbol_format.h"

#include <cstring>
#include <vector>

namespace dtrace::consumer {

namespace {

std::vector<uint64_t> words_of(const std::string &bytes) {
    std::vector<uint64_t> out(bytes.size() / sizeof(uint64_t));
    if (!out.empty())
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(uint64_t));
    return out;
}

} // namespace

std::string format_stack(const Value &stack, const Resolvers &resolvers, int indent,
                         const std::function<std::string(const std::string &)> &frame) {
    const bool user = stack.kind == Value::Kind::UserStack;
    if (stack.kind != Value::Kind::Stack && !user)
        return {};
    const std::vector<uint64_t> words = words_of(stack.bytes);
    const uint64_t pid = user && !words.empty() ? words[0] : 0;
    const size_t first_pc = user ? 1 : 0;
    if (user && words.size() <= first_pc)
        return {}; // DTrace prints nothing at all for a ustack() of depth 0

    std::string out = "\n";
    for (size_t i = first_pc; i < words.size() && words[i] != 0; ++i) {
        const uint64_t pc = words[i];
        const std::string text =
            address_text(user ? user_lookup(resolvers, pid, pc) : kernel_lookup(resolvers, pc), pc);
        out += std::string(static_cast<size_t>(indent > 0 ? indent : 0), ' ');
        out += frame ? frame(text) : text;
        out += "\n";
    }
    return out;
}

} // namespace dtrace::consumer
