// file_names_ahead.cpp: the look-ahead reader of file names (see file_names_ahead.h).
#include "kernel/file_names_ahead.h"

namespace dtrace::etw::plugin::kernel {

namespace {

constexpr uint8_t kFileName = 0;
constexpr uint8_t kFileCreateName = 32;
constexpr uint8_t kFileRundown = 36;
constexpr uint8_t kFileCreate = 64;

namespace field {
const MofFieldId FileObject{"FileObject"};
const MofFieldId FileName{"FileName"};
const MofFieldId OpenPath{"OpenPath"};
} // namespace field

size_t name_bytes(const std::string &name) {
    return name.size();
}

} // namespace

FileNamesAhead::FileNamesAhead(ReaderOpener open)
    : ahead_(
          std::move(open),
          [record = MofRecord{}](const Event &event) mutable -> std::optional<std::pair<uint64_t, std::string>> {
              const int klass = kernel_class_of(event);
              if (static_cast<KernelClass>(klass) != KernelClass::FileIo || !decode_mof(event, klass, record)) {
                  return std::nullopt;
              }
              return naming(event, record);
          },
          name_bytes, kMaxKeptBytes) {}

std::optional<std::pair<uint64_t, std::string>> FileNamesAhead::naming(const Event &event, const MofRecord &record) {
    switch (event.opcode) {
    case kFileName:
    case kFileCreateName:
    case kFileRundown:
        return std::pair{record.u(field::FileObject), record.s(field::FileName)};
    case kFileCreate:
        return std::pair{record.u(field::FileObject), record.s(field::OpenPath)};
    default:
        return std::nullopt;
    }
}

} // namespace dtrace::etw::plugin::kernel
