// kernel_state.h: what the kernel providers remember from earlier events.
//
// Kernel events name threads, files and registry keys by ids and kernel
// addresses; the providers' arguments want what those stand for:
//   - threads: the process a thread belongs to (PERFINFO records and CSwitch
//     name threads only), its priorities from Thread events, and what the
//     last context switch said about it (state, wait reason, CPU);
//   - files: FileObject/FileKey to path, from FileIo Name, FileCreate,
//     FileRundown and Create events (PerfView's FileIDToName), those to come
//     read ahead (file_names_ahead.h), and the file
//     of each pending IRP, for OperationEnd;
//   - disk I/Os: what a DiskIo Init event starts, from its completion read
//     ahead (disk_completions_ahead.h);
//   - registry keys: KeyHandle (a KCB) to key name, from KCBCreate and the
//     KCB rundown, to complete names given relative to a handle.
// Threads and keys stay until a later event replaces them; pending IRPs
// leave at their OperationEnd, and the table of them is bounded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "kernel/disk_completions_ahead.h"
#include "kernel/file_names_ahead.h"
#include "kernel/id_table.h"
#include "kernel/mof_classes.h"
#include "kernel/pmc_sources.h"
#include "kernel/volume_map.h"
#include "reader/event.h"

namespace dtrace::etw::plugin::kernel {

struct ThreadInfo {
    uint32_t pid = kUnknownId;
    uint8_t base_priority = 0;
    uint8_t page_priority = 0;
    uint8_t io_priority = 0;
    uint8_t flags = 0;
    int8_t priority = 0;
    int8_t state = 0; // KTHREAD_STATE; 2 is Running
    int8_t wait_reason = 0;
    int8_t wait_mode = 0;
    int8_t ideal_processor = 0;
    uint32_t wait_time = 0;
    int32_t cpu = -1;
    uint64_t teb = 0;
};

// What the state may read ahead in the session (each nullptr: nothing) and
// how it maps NT paths to drive letters (nullptr: it does not).
struct LookAhead {
    FileNamesAhead *file_names = nullptr;
    DiskCompletionsAhead *disk_completions = nullptr;
    VolumeMap *volumes = nullptr;
};

class KernelState {
  public:
    // Learns from one event of class klass, decoded in record (context
    // switches excepted: they come to note_context_switch undecoded).
    void note(const Event &event, int klass, const MofRecord &record);
    // Learns the states of the two threads of a CSwitch event.
    void note_context_switch(const Event &event);

    // nullptr for a thread no event has named.
    const ThreadInfo *thread(uint32_t tid) const;
    // The process of a thread, or kUnknownId.
    uint32_t pid_of(uint32_t tid) const;
    // Files not yet named and disk I/Os not yet completed are looked up
    // ahead, from position, the index of the event being dispatched.
    void set_look_ahead(const LookAhead &ahead) { ahead_ = ahead; }
    void set_position(uint64_t position) { position_ = position; }
    // The path of a FileObject or FileKey: as the events so far name it, else
    // as the first event after this one that names it does; "" when unknown.
    const std::string &file_name(uint64_t file) const;
    // An NT path as a drive-letter path, when the trace maps its volume.
    std::optional<VolumeMap::Mapped> dos_path(const std::string &nt_path) const {
        return ahead_.volumes != nullptr ? ahead_.volumes->to_dos(nt_path) : std::nullopt;
    }
    // What the disk I/O of irp that starts at this event is, from its
    // completion; nullptr when the trace does not complete it.
    const DiskCompletion *disk_completion(uint64_t irp) const {
        return ahead_.disk_completions != nullptr ? ahead_.disk_completions->resolve(irp, position_) : nullptr;
    }
    // The file of a pending IRP, or of the one whose OperationEnd was noted
    // last (0 when unknown).
    uint64_t file_of_irp(uint64_t irp) const;
    // The full name of a key given by handle and (relative) name.
    std::string key_name(uint64_t handle, const std::string &name) const;
    // The trace's PMC sampling sources and attached counters.
    const PmcSources &pmc() const { return pmc_; }

  private:
    void note_thread(const Event &event, const MofRecord &record);
    void note_file(const Event &event, const MofRecord &record);
    void note_registry(const Event &event, const MofRecord &record);

    IdTable<ThreadInfo> threads_;
    std::unordered_map<uint64_t, std::string> files_;
    std::unordered_map<uint64_t, uint64_t> irps_; // IRP -> FileObject
    uint64_t ended_irp_ = 0;                      // the IRP of the last OperationEnd, and its file
    uint64_t ended_file_ = 0;
    std::unordered_map<uint64_t, std::string> keys_;
    LookAhead ahead_;
    uint64_t position_ = 0;
    PmcSources pmc_;
};

} // namespace dtrace::etw::plugin::kernel
