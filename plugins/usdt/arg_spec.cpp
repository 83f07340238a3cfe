// arg_spec.cpp: parsing a USDT note's argument specs (see arg_spec.h).
#include "arg_spec.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace dtrace::usdt {

namespace {

struct RegisterNames {
    uint8_t reg;
    const char *names[4]; // 64, 32, 16, 8-bit
};

constexpr RegisterNames kRegisters[] = {
    {UPROBE_REG_RAX, {"rax", "eax", "ax", "al"}},      {UPROBE_REG_RBX, {"rbx", "ebx", "bx", "bl"}},
    {UPROBE_REG_RCX, {"rcx", "ecx", "cx", "cl"}},      {UPROBE_REG_RDX, {"rdx", "edx", "dx", "dl"}},
    {UPROBE_REG_RSI, {"rsi", "esi", "si", "sil"}},     {UPROBE_REG_RDI, {"rdi", "edi", "di", "dil"}},
    {UPROBE_REG_RBP, {"rbp", "ebp", "bp", "bpl"}},     {UPROBE_REG_RSP, {"rsp", "esp", "sp", "spl"}},
    {UPROBE_REG_R8, {"r8", "r8d", "r8w", "r8b"}},      {UPROBE_REG_R9, {"r9", "r9d", "r9w", "r9b"}},
    {UPROBE_REG_R10, {"r10", "r10d", "r10w", "r10b"}}, {UPROBE_REG_R11, {"r11", "r11d", "r11w", "r11b"}},
    {UPROBE_REG_R12, {"r12", "r12d", "r12w", "r12b"}}, {UPROBE_REG_R13, {"r13", "r13d", "r13w", "r13b"}},
    {UPROBE_REG_R14, {"r14", "r14d", "r14w", "r14b"}}, {UPROBE_REG_R15, {"r15", "r15d", "r15w", "r15b"}},
    {UPROBE_REG_RIP, {"rip", "eip", "ip", nullptr}},
};

std::optional<int64_t> parse_integer(std::string_view text) {
    bool negative = !text.empty() && text.front() == '-';
    if (negative)
        text.remove_prefix(1);
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    uint64_t magnitude = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

// One "OPERAND": fills the spec's kind, register and value.
void parse_operand(std::string_view operand, ArgSpec &spec) {
    spec.kind = ArgSpec::Kind::Unsupported;
    if (operand.size() > 1 && operand.front() == '%') {
        if (std::optional<uint8_t> reg = register_of(operand.substr(1))) {
            spec.kind = ArgSpec::Kind::Register;
            spec.reg = *reg;
        }
        return;
    }
    if (operand.size() > 1 && operand.front() == '$') {
        if (std::optional<int64_t> value = parse_integer(operand.substr(1))) {
            spec.kind = ArgSpec::Kind::Constant;
            spec.value = *value;
        }
        return;
    }
    const size_t open = operand.find('(');
    if (open == std::string_view::npos || operand.back() != ')' || operand.size() < open + 3 ||
        operand[open + 1] != '%')
        return;
    std::optional<int64_t> displacement = open == 0 ? 0 : parse_integer(operand.substr(0, open));
    std::optional<uint8_t> reg = register_of(operand.substr(open + 2, operand.size() - open - 3));
    if (displacement && reg) {
        spec.kind = ArgSpec::Kind::Memory;
        spec.reg = *reg;
        spec.value = *displacement;
    }
}

} // namespace

std::optional<uint8_t> register_of(std::string_view name) {
    for (const RegisterNames &r : kRegisters)
        for (const char *n : r.names)
            if (n && name == n)
                return r.reg;
    return std::nullopt;
}

std::optional<std::vector<ArgSpec>> parse_arg_specs(std::string_view text) {
    std::vector<ArgSpec> out;
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] == ' ' || text[i] == '\t') {
            ++i;
            continue;
        }
        size_t end = text.find_first_of(" \t", i);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view word = text.substr(i, end - i);
        i = end;
        const size_t at = word.find('@');
        if (at == std::string_view::npos)
            return std::nullopt;
        ArgSpec spec;
        spec.text = std::string(word);
        std::string_view size = word.substr(0, at);
        spec.is_signed = !size.empty() && size.front() == '-';
        if (spec.is_signed)
            size.remove_prefix(1);
        if (size != "1" && size != "2" && size != "4" && size != "8")
            return std::nullopt;
        spec.size = static_cast<uint8_t>(size[0] - '0');
        parse_operand(word.substr(at + 1), spec);
        out.push_back(std::move(spec));
    }
    return out;
}

std::string arg_type_name(const ArgSpec &spec) {
    return std::string(spec.is_signed ? "int" : "uint") + std::to_string(spec.size * 8) + "_t";
}

uprobe_usdt_arg to_uprobe_arg(const ArgSpec &spec) {
    uprobe_usdt_arg arg{};
    switch (spec.kind) {
    case ArgSpec::Kind::Constant:
        arg.kind = UPROBE_USDT_CONST;
        break;
    case ArgSpec::Kind::Register:
        arg.kind = UPROBE_USDT_REG;
        break;
    case ArgSpec::Kind::Memory:
        arg.kind = UPROBE_USDT_MEMORY;
        break;
    case ArgSpec::Kind::Unsupported:
        arg.kind = UPROBE_USDT_NONE;
        break;
    }
    arg.value = spec.value;
    arg.reg = spec.reg;
    arg.size = spec.size;
    arg.is_signed = spec.is_signed ? 1 : 0;
    return arg;
}

// The user stack a site's memory operands past the sixth argument need
// copied at the event (bytes from rsp, as the uprobe program copies them:
// 256 up to UPROBE_STACK_MAX), 0 when they need none or lie beyond it.
uint32_t stack_window_for(const std::vector<ArgSpec> &args, uint32_t nargs) {
    int64_t needed = 0;
    for (uint32_t i = LIVE_MAX_ARGS; i < nargs && i < args.size(); ++i) {
        const ArgSpec &arg = args[i];
        if (arg.kind == ArgSpec::Kind::Memory && arg.reg == UPROBE_REG_RSP && arg.value >= 0)
            needed = std::max<int64_t>(needed, arg.value + arg.size);
    }
    uint32_t window = 256;
    while (window < needed && window < UPROBE_STACK_MAX)
        window *= 2;
    return needed == 0 || needed > UPROBE_STACK_MAX ? 0 : window;
}

// An argument of a probe site read from what the uprobe program copied:
// its registers, and the user stack from rsp (arguments past the sixth,
// which the program does not place). A memory operand outside the stack
// copy reads 0.
uint64_t argument_from_tail(const ArgSpec &spec, const uprobe_tail &tail, std::span<const uint8_t> stack) {
    uint64_t value = 0;
    if (spec.kind == ArgSpec::Kind::Constant) {
        value = static_cast<uint64_t>(spec.value);
    } else if (spec.kind == ArgSpec::Kind::Register && spec.reg < UPROBE_NREGS) {
        value = tail.regs[spec.reg];
    } else if (spec.kind == ArgSpec::Kind::Memory && spec.reg < UPROBE_NREGS) {
        const uint64_t address = tail.regs[spec.reg] + static_cast<uint64_t>(spec.value);
        const uint64_t offset = address - tail.regs[UPROBE_REG_RSP];
        if (address >= tail.regs[UPROBE_REG_RSP] && offset <= stack.size() && spec.size <= stack.size() - offset)
            std::memcpy(&value, stack.data() + offset, spec.size);
    }
    if (spec.size < 8) {
        const unsigned shift = 64 - 8 * spec.size;
        value = spec.is_signed ? static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift)
                               : (value << shift) >> shift;
    }
    return value;
}

} // namespace dtrace::usdt
