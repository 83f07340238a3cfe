// function_catalog.cpp: reading the list of traceable kernel functions.
#include "function_catalog.h"

#include <algorithm>
#include <cstddef>

#include "tracefs.h"

namespace dtrace::fbt {

namespace {

constexpr std::string_view kKernelModule = "vmlinux";

// The next line of `text` from `pos`, without its newline.
std::string_view next_line(std::string_view text, size_t &pos) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    return line;
}

// "name [module]" or "name": the name and the module ("vmlinux" without one).
KernelFunction function_of(std::string_view name, std::string_view rest) {
    std::string_view module = kKernelModule;
    if (size_t open = rest.find('['); open != std::string_view::npos) {
        size_t close = rest.find(']', open);
        if (close != std::string_view::npos && close > open + 1)
            module = rest.substr(open + 1, close - open - 1);
    }
    return {std::string(module), std::string(name)};
}

std::string_view first_word(std::string_view line, size_t &end) {
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) {
        end = line.size();
        return {};
    }
    end = std::min(line.find_first_of(" \t", start), line.size());
    return line.substr(start, end - start);
}

// A kallsyms text symbol that is not a function one can probe the entry of.
bool is_function_entry(std::string_view name) {
    return name.find("__pfx_") == std::string_view::npos && !name.starts_with(".") && !name.ends_with(".cold") &&
           name.find(".cold.") == std::string_view::npos && !name.starts_with("_stext") &&
           !name.starts_with("_etext") && !name.starts_with("__start_") && !name.starts_with("__stop_") &&
           !name.starts_with("__SCT__") && !name.starts_with("__indirect_thunk_");
}

} // namespace

std::vector<KernelFunction> parse_filter_functions(std::string_view text) {
    std::vector<KernelFunction> functions;
    for (size_t pos = 0; pos < text.size();) {
        std::string_view line = next_line(text, pos);
        size_t end = 0;
        std::string_view name = first_word(line, end);
        if (!name.empty() && name.find('[') == std::string_view::npos)
            functions.push_back(function_of(name, line.substr(end)));
    }
    return functions;
}

std::vector<KernelFunction> parse_kallsyms_functions(std::string_view text) {
    std::vector<KernelFunction> functions;
    for (size_t pos = 0; pos < text.size();) {
        std::string_view line = next_line(text, pos);
        // "ffffffff816b89f0 T vfs_read\t[module]"
        size_t end = 0;
        std::string_view address = first_word(line, end);
        std::string_view rest = line.substr(end);
        std::string_view type = first_word(rest, end);
        rest = rest.substr(end);
        std::string_view name = first_word(rest, end);
        if (address.empty() || (type != "t" && type != "T") || name.empty() || !is_function_entry(name))
            continue;
        KernelFunction function = function_of(name, rest.substr(end));
        // Code the kernel generates (ftrace and BPF trampolines, BPF programs) is not a function of a module.
        if (!function.module.starts_with("__builtin__") && function.module != "bpf")
            functions.push_back(std::move(function));
    }
    return functions;
}

std::vector<std::string> parse_blacklist(std::string_view text) {
    std::vector<std::string> names;
    for (size_t pos = 0; pos < text.size();) {
        std::string_view line = next_line(text, pos);
        size_t end = 0;
        std::string_view range = first_word(line, end);
        std::string_view name = first_word(line.substr(end), end);
        if (range.starts_with("0x") && !name.empty())
            names.emplace_back(name);
    }
    return names;
}

void sort_unique(std::vector<KernelFunction> &functions) {
    std::sort(functions.begin(), functions.end());
    functions.erase(std::unique(functions.begin(), functions.end()), functions.end());
}

void remove_blacklisted(std::vector<KernelFunction> &functions, std::vector<std::string> blacklist) {
    if (blacklist.empty())
        return;
    std::sort(blacklist.begin(), blacklist.end());
    std::erase_if(functions, [&](const KernelFunction &f) {
        return std::binary_search(blacklist.begin(), blacklist.end(), f.name);
    });
}

live::Result<std::vector<KernelFunction>> FunctionCatalog::read_all() const {
    std::string filter_path = sources_.filter_functions;
    if (filter_path.empty()) {
        if (live::Result<std::string> root = live::tracefs_root(); root)
            filter_path = root.value() + "/available_filter_functions";
    }
    // The ftrace list where readable (it may be refused: ftrace off), else kallsyms.
    live::Result<std::string> text =
        filter_path.empty() ? live::Result<std::string>(live::Error{""}) : live::read_text_file(filter_path);
    std::vector<KernelFunction> functions;
    if (text && !text.value().empty()) {
        functions = parse_filter_functions(text.value());
    } else {
        live::Result<std::string> symbols = live::read_text_file(sources_.kallsyms);
        if (!symbols)
            return live::Error{"cannot list the kernel's functions: " + symbols.error()};
        functions = parse_kallsyms_functions(symbols.value());
    }
    sort_unique(functions);
    if (live::Result<std::string> blacklist = live::read_text_file(sources_.blacklist); blacklist)
        remove_blacklisted(functions, parse_blacklist(blacklist.value()));
    return functions;
}

live::Status FunctionCatalog::load() {
    live::Result<std::vector<KernelFunction>> functions = read_all();
    if (!functions)
        return live::Error{functions.error()};
    functions_ = std::move(functions.value());
    sorted_ = functions_.size();
    loaded_ = true;
    return live::Done{};
}

live::Result<std::pair<size_t, size_t>> FunctionCatalog::add_module(std::string_view module) {
    if (!loaded_) {
        if (live::Status loaded = load(); !loaded)
            return live::Error{loaded.error()};
    }
    live::Result<std::vector<KernelFunction>> now = read_all();
    if (!now)
        return live::Error{now.error()};
    const size_t first = functions_.size();
    for (KernelFunction &f : now.value()) {
        if (f.module == module && find(f.module, f.name) == nullptr)
            functions_.push_back(std::move(f));
    }
    return std::pair(first, functions_.size());
}

live::Result<const std::vector<KernelFunction> *> FunctionCatalog::functions() {
    if (!loaded_) {
        if (live::Status loaded = load(); !loaded)
            return live::Error{loaded.error()};
    }
    return &functions_;
}

const KernelFunction *FunctionCatalog::find(std::string_view module, std::string_view name) {
    if (!loaded_ && !load())
        return nullptr;
    KernelFunction key{std::string(module), std::string(name)};
    auto sorted_end = functions_.begin() + static_cast<ptrdiff_t>(sorted_);
    auto it = std::lower_bound(functions_.begin(), sorted_end, key);
    if (it != sorted_end && *it == key)
        return &*it;
    it = std::find(sorted_end, functions_.end(), key); // a module's, added while tracing
    return it != functions_.end() ? &*it : nullptr;
}

} // namespace dtrace::fbt
