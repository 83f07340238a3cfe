// return_offset.cpp: the return instruction of a kernel function, when it has one.
#include "return_offset.h"

#include <algorithm>
#include <charconv>

#include "../pid/function_code.h"
#include "tracefs.h"

namespace dtrace::fbt {

namespace {

// Longer functions are not read: their arg0 stays 0.
constexpr uint64_t kMaxFunctionBytes = 64 * 1024;

std::string_view next_word(std::string_view &rest) {
    const size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos) {
        rest = {};
        return {};
    }
    const size_t end = std::min(rest.find_first_of(" \t", start), rest.size());
    std::string_view word = rest.substr(start, end - start);
    rest = rest.substr(end);
    return word;
}

} // namespace

uint64_t single_return_offset(std::span<const uint8_t> code, uint64_t address) {
    std::optional<pid::FunctionCode> decoded = pid::decode_function(code, address);
    return decoded && decoded->returns.size() == 1 ? decoded->returns.front() : 0;
}

void ReturnOffsets::load_from(std::string_view text) {
    loaded_ = true;
    symbols_.clear();
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        std::string_view rest = text.substr(pos, end - pos);
        pos = end + 1;
        // "ffffffff816b89f0 T vfs_read\t[module]"
        const std::string_view address = next_word(rest), type = next_word(rest), name = next_word(rest),
                               module = next_word(rest);
        Symbol s{0, "vmlinux", std::string(name)};
        if ((type != "t" && type != "T") || name.empty() ||
            std::from_chars(address.data(), address.data() + address.size(), s.address, 16).ec != std::errc())
            continue;
        if (module.size() > 2 && module.front() == '[' && module.back() == ']')
            s.module = module.substr(1, module.size() - 2);
        symbols_.push_back(std::move(s));
    }
    std::sort(symbols_.begin(), symbols_.end(), [](const Symbol &a, const Symbol &b) { return a.address < b.address; });
}

std::optional<std::pair<uint64_t, uint64_t>> ReturnOffsets::extent(std::string_view module, std::string_view name) {
    if (!loaded_) {
        live::Result<std::string> text = live::read_text_file(kallsyms_);
        load_from(text ? std::string_view(text.value()) : std::string_view());
    }
    for (auto it = symbols_.begin(); it != symbols_.end(); ++it) {
        if (it->name != name || it->module != module || it->address == 0)
            continue;
        auto next = std::upper_bound(it, symbols_.end(), it->address,
                                     [](uint64_t a, const Symbol &s) { return a < s.address; });
        if (next == symbols_.end())
            return std::nullopt;
        return std::pair(it->address, next->address - it->address);
    }
    return std::nullopt;
}

uint64_t ReturnOffsets::offset_of(std::string_view module, std::string_view name) {
    std::optional<std::pair<uint64_t, uint64_t>> where = extent(module, name);
    if (!where || where->second > kMaxFunctionBytes)
        return 0;
    std::vector<uint8_t> code(where->second);
    if (read_kernel_(where->first, code.data(), code.size()) != static_cast<int64_t>(code.size()))
        return 0;
    return single_return_offset(code, where->first);
}

} // namespace dtrace::fbt
