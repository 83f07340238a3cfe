// disk_completions_ahead.cpp: disk I/O completions read ahead (see disk_completions_ahead.h).
#include "kernel/disk_completions_ahead.h"

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kDiskRead = 10, kDiskWrite = 11, kDiskFlush = 14;

namespace field {
const MofFieldId IrpFlags{"IrpFlags"};
const MofFieldId TransferSize{"TransferSize"};
const MofFieldId Irp{"Irp"};
const MofFieldId ByteOffset{"ByteOffset"};
const MofFieldId DiskNumber{"DiskNumber"};
const MofFieldId FileObject{"FileObject"};
} // namespace field

size_t completion_bytes(const DiskCompletion &) {
    return sizeof(DiskCompletion);
}

} // namespace

DiskCompletion DiskCompletion::of(const MofRecord &record) {
    DiskCompletion c;
    c.irp_flags = record.u(field::IrpFlags);
    c.transfer_size = record.u(field::TransferSize);
    c.byte_offset = record.u(field::ByteOffset);
    c.file_object = record.u(field::FileObject);
    if (record.has(field::DiskNumber)) {
        c.disk = record.u(field::DiskNumber);
    }
    return c;
}

bool DiskCompletionsAhead::completes(uint8_t opcode) {
    return opcode == kDiskRead || opcode == kDiskWrite || opcode == kDiskFlush;
}

DiskCompletionsAhead::DiskCompletionsAhead(ReaderOpener open)
    : ahead_(
          std::move(open),
          [record = MofRecord{}](const Event &event) mutable -> std::optional<std::pair<uint64_t, DiskCompletion>> {
              const int klass = kernel_class_of(event);
              if (static_cast<KernelClass>(klass) != KernelClass::DiskIo || !completes(event.opcode) ||
                  !decode_mof(event, klass, record)) {
                  return std::nullopt;
              }
              return std::pair{record.u(field::Irp), DiskCompletion::of(record)};
          },
          completion_bytes, kMaxKeptBytes) {}

} // namespace dtrace::etw::plugin::kernel
