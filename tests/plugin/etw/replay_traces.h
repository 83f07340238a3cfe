// replay_traces.h: the traces the etw plugin's tests replay.
//
// The end-to-end tests (tests/plugin/etw, through the dtrace binary) and the
// unit tests (tests/unit/etw_plugin, through a recording host) replay the
// same traces, made with the test tree's ETL writer, so their content is
// fixed in one place: replay.etl's events are listed in replay_traces.cpp.
#pragma once

#include <cstdint>
#include <string_view>

#include "byte_writer.h"
#include "reader/guid.h"

namespace dtrace::etw::fixture {

// Providers of replay_trace() besides the kernel classes.
extern const Guid kDotNetRuntime;
extern const Guid kDotNetRundown;
extern const Guid kFixtureProvider; // TraceLogging, named "Fixture.Provider"
extern const Guid kImageId;         // classic KernelTraceControl-ImageID events

// Two CPUs, 14 records after the logfile header: kernel process rundown,
// .NET runtime events of several ids, levels and keywords, a TraceLogging
// event, a classic event, a profile sample and its stack, a lost-event
// record, and 2.5 s later a last event.
inline constexpr uint64_t kReplayRecords = 15; // the logfile header included
Bytes replay_trace();

// The NT kernel events the kernel providers fire on, logged by a kernel of
// pointer_size 8 or 4 (bytes): process, thread and image rundown and
// start/end, a context switch and a ready thread, file, disk, registry,
// network, page fault, sample, DPC, ISR and system call events; one CPU, the
// list in replay_traces.cpp.
Bytes kernel_trace(uint8_t pointer_size);

// Samples whose stacks are stack keys defined later in the file (a
// KeyDelete, then the rundown), one key used for two stacks; the list in
// replay_traces.cpp.
Bytes stack_key_trace();

// An EVENT_HEADER event of process 300, thread 301, at level 4.
Bytes process_300_event(const Guid &provider, uint16_t id, uint8_t version, int64_t t, Bytes payload);

// Payloads of the CLR's ModuleLoad (and rundown ModuleDCStart/End) and
// MethodLoadVerbose (and MethodDCStart/EndVerbose) events, version 1.
Bytes clr_module_payload(uint64_t module_id, std::u16string_view il_path);
Bytes clr_method_payload(uint64_t module_id, uint64_t start, uint32_t size, std::u16string_view space,
                         std::u16string_view name);

// A .NET process (pid 300) whose jitted methods the runtime names: a module
// and a method load, a sample whose user stack runs through both methods,
// child.exe's image and an unknown address, and then the rundown's method
// end (the second method is named only there); the list in
// replay_traces.cpp.
Bytes jit_stack_trace();

// Process 300 (client.exe) sends kIntervalSends TCP segments, one every 2 ms
// for 6 s of trace time, the one at kIntervalLsoIndex an LSO send of
// kIntervalLsoBytes (more than ip_plength's 16 bits); each other send is of
// (index % 1500) + 1 bytes. For per-interval reports: many ticks, many events
// between them. Its header says the logger lost kIntervalLoggerLost events.
inline constexpr uint32_t kIntervalSends = 3000;
inline constexpr uint32_t kIntervalLoggerLost = 41;
inline constexpr uint32_t kIntervalLsoIndex = 1234;
inline constexpr uint32_t kIntervalLsoBytes = 11'400'000;
Bytes interval_trace();

// One session in two files of one machine's clock, for -E given twice (and
// an archive holding both): the kernel file names process 300 (client.exe)
// and samples it with a stack that follows the sample after an event of the
// user file on the same CPU; the user file, whose session starts later, has
// .NET events of process 300 before and after the kernel file names it. The
// list in replay_traces.cpp.
struct SessionFiles {
    Bytes kernel;
    Bytes user;
};
SessionFiles session_traces();

// Disk I/O of files whose names come later in the file (the FileIo rundown
// at its end), earlier, or never, each started by an Init event that names
// its IRP only (one IRP used twice, one start never completed); the list in
// replay_traces.cpp.
Bytes late_names_trace();

// kCorruptCpus x kCorruptPerCpu events in small buffers, the one at
// kCorruptBufferOffset damaged: the reader skips it and goes on.
inline constexpr uint16_t kCorruptCpus = 4;
inline constexpr uint32_t kCorruptPerCpu = 60;
inline constexpr uint32_t kCorruptBufferSize = 0x400;
inline constexpr uint64_t kCorruptBufferOffset = 3 * kCorruptBufferSize;
Bytes corrupt_trace();

// PMC sampling sources, a counter configuration and PMC samples of them
// (and of a source Windows names, and one nobody names); the list in
// replay_traces.cpp.
Bytes pmc_trace();

} // namespace dtrace::etw::fixture
