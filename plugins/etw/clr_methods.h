// clr_methods.h: the names of .NET methods the runtime compiled, by address.
//
// Jitted code lives outside any image, so a frame in it would print as a bare
// address. The CLR logs where it put each method: MethodLoadVerbose when it
// compiles one, and the rundown provider lists every method (and module)
// alive at the start and the end of the session. These give
// `module`Namespace.Method+0xoffset` frames.
//
// Events read (ClrEtwAll.man; each layout is the same prefix in versions 0-2):
//   Microsoft-Windows-DotNETRuntime (e13c0d23-ccbc-4e12-931b-d9cc2eee27e4):
//     143 MethodLoadVerbose, 144 MethodUnloadVerbose, 152 ModuleLoad,
//     153 ModuleUnload
//   Microsoft-Windows-DotNETRuntimeRundown (a669021c-c450-4609-a035-5af59af4df18):
//     143 MethodDCStartVerbose, 144 MethodDCEndVerbose, 153 ModuleDCStart,
//     154 ModuleDCEnd
//   method: u64 MethodID, u64 ModuleID, u64 MethodStartAddress,
//     u32 MethodSize, u32 MethodToken, u32 MethodFlags,
//     wstring MethodNamespace, wstring MethodName, wstring MethodSignature
//   module: u64 ModuleID, u64 AssemblyID, u32 ModuleFlags, u32 Reserved1,
//     wstring ModuleILPath, wstring ModuleNativePath
// An unloaded method keeps its name until other code is placed over it, so
// that stacks recorded before the unload still read. A method whose module
// was never named is in the module "?", as PerfView shows it.
//
// The replay thread notes events; symbol lookups come from the consumer's
// thread, so a mutex guards the tables.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "address_ranges.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

struct MethodHit {
    std::string module;
    std::string function; // Namespace.Method
    uint64_t offset = 0;  // address minus the method's start
};

class ClrMethods {
  public:
    // Learns from a method or module event of the runtime or its rundown;
    // any other event costs a comparison or two.
    void note(const Event &event) {
        if (event.id >= kLowestId && event.id <= kHighestId && event.kind == RecordKind::EventHeader) {
            note_candidate(event);
        }
    }
    // The method at address in process pid.
    std::optional<MethodHit> find(uint32_t pid, uint64_t address) const;

  private:
    // The ids of the events read (clr_methods.cpp's kind_of()) lie in
    // [kLowestId, kHighestId]: other events are turned away on their id.
    static constexpr uint16_t kLowestId = 143;
    static constexpr uint16_t kHighestId = 154;

    struct Method {
        uint64_t module_id = 0;
        std::string name;
    };
    struct Process {
        AddressRanges<Method> methods;
        std::unordered_map<uint64_t, std::string> modules; // ModuleID -> file name
    };

    void note_candidate(const Event &event);
    void note_method(const Event &event);
    void note_module(const Event &event);

    mutable std::mutex mutex_;
    std::unordered_map<uint32_t, Process> processes_;
};

} // namespace dtrace::etw::plugin
