// clr_methods.cpp: jitted methods from the CLR's method and module events.
#include "clr_methods.h"

#include "kernel/module_map.h"
#include "reader/le_bytes.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin {

namespace {

const Guid kRuntime = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
const Guid kRundown = *Guid::parse("a669021c-c450-4609-a035-5af59af4df18");

enum class Kind { None, Method, Module };

Kind kind_of(const Event &event) {
    if (event.provider == kRuntime) {
        switch (event.id) {
        case 143: // MethodLoadVerbose
        case 144: // MethodUnloadVerbose
            return Kind::Method;
        case 152: // ModuleLoad
        case 153: // ModuleUnload
            return Kind::Module;
        default:
            return Kind::None;
        }
    }
    if (event.provider == kRundown) {
        switch (event.id) {
        case 143: // MethodDCStartVerbose
        case 144: // MethodDCEndVerbose
            return Kind::Method;
        case 153: // ModuleDCStart
        case 154: // ModuleDCEnd
            return Kind::Module;
        default:
            return Kind::None;
        }
    }
    return Kind::None;
}

constexpr size_t kMethodFixed = 36; // MethodID ... MethodFlags
constexpr size_t kModuleFixed = 24; // ModuleID ... Reserved1

} // namespace

void ClrMethods::note_candidate(const Event &event) {
    switch (kind_of(event)) {
    case Kind::Method:
        note_method(event);
        break;
    case Kind::Module:
        note_module(event);
        break;
    case Kind::None:
        break;
    }
}

void ClrMethods::note_method(const Event &event) {
    std::span<const uint8_t> p = event.payload;
    if (p.size() < kMethodFixed || event.pid == kUnknownId) {
        return;
    }
    const uint64_t module_id = load_u64(p.data() + 8);
    const uint64_t start = load_u64(p.data() + 16);
    const uint32_t size = load_u32(p.data() + 24);
    const Utf16String space = read_utf16z(p.subspan(kMethodFixed));
    const Utf16String name = read_utf16z(p.subspan(kMethodFixed + space.bytes));
    if (size == 0 || !name.terminated || name.utf8.empty()) {
        return;
    }
    Method method{module_id, space.utf8.empty() ? name.utf8 : space.utf8 + "." + name.utf8};
    std::lock_guard lock(mutex_);
    processes_[event.pid].methods.place(start, size, std::move(method));
}

void ClrMethods::note_module(const Event &event) {
    std::span<const uint8_t> p = event.payload;
    if (p.size() < kModuleFixed || event.pid == kUnknownId) {
        return;
    }
    const Utf16String il_path = read_utf16z(p.subspan(kModuleFixed));
    if (!il_path.terminated || il_path.utf8.empty()) {
        return;
    }
    std::lock_guard lock(mutex_);
    processes_[event.pid].modules[load_u64(p.data())] = kernel::image_file_name(il_path.utf8);
}

std::optional<MethodHit> ClrMethods::find(uint32_t pid, uint64_t address) const {
    std::lock_guard lock(mutex_);
    auto process = processes_.find(pid);
    if (process == processes_.end()) {
        return std::nullopt;
    }
    auto found = process->second.methods.find(address);
    if (!found) {
        return std::nullopt;
    }
    auto module = process->second.modules.find(found->value.module_id);
    return MethodHit{module == process->second.modules.end() ? "?" : module->second, found->value.name, found->offset};
}

} // namespace dtrace::etw::plugin
