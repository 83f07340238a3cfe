// kernel_memory.cpp: reading kernel memory through a BPF program run on demand.
#include "kernel_memory.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/fbt_record.h"

extern "C" {
extern const unsigned char kernel_read_bpf_object[];
extern const size_t kernel_read_bpf_object_size;
}

namespace dtrace::fbt {

KernelMemory::~KernelMemory() {
    if (object_ != nullptr)
        bpf_object__close(object_);
}

bool KernelMemory::ensure_loaded() {
    if (tried_)
        return program_fd_ >= 0;
    tried_ = true;
    LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "fbt_kernel_read");
    object_ = bpf_object__open_mem(kernel_read_bpf_object, kernel_read_bpf_object_size, &opts);
    if (object_ == nullptr || bpf_object__load(object_) != 0) {
        error_ = std::string("cannot load the kernel memory reader: ") + std::strerror(errno);
        return false;
    }
    bpf_program *program = bpf_object__find_program_by_name(object_, "fbt_read_kernel");
    bpf_map *buffer = bpf_object__find_map_by_name(object_, "fbt_read_buffer");
    if (program == nullptr || buffer == nullptr) {
        error_ = "the kernel memory reader has no program or buffer";
        return false;
    }
    program_fd_ = bpf_program__fd(program);
    buffer_fd_ = bpf_map__fd(buffer);
    return true;
}

int64_t KernelMemory::read(uint64_t address, void *buffer, size_t length) {
    if (length == 0)
        return 0;
    std::lock_guard lock(mutex_);
    if (!ensure_loaded())
        return -1;
    constexpr uint64_t kPage = 4096;
    std::vector<uint8_t> bytes(FBT_READ_MAX);
    // Page by page, so that a string ending before an unmapped page reads.
    for (size_t done = 0; done < length;) {
        const uint64_t at = address + done;
        const size_t chunk = std::min<size_t>(length - done, kPage - at % kPage);
        fbt_read_request request{at, static_cast<uint32_t>(chunk), 0};
        // A syscall program's context is copied back into ctx_in (ctx_out must stay unset).
        LIBBPF_OPTS(bpf_test_run_opts, run, .ctx_in = &request, .ctx_size_in = sizeof request);
        const uint32_t zero = 0;
        if (bpf_prog_test_run_opts(program_fd_, &run) != 0) {
            error_ = std::string("cannot run the kernel memory reader: ") + std::strerror(errno);
            return done > 0 ? static_cast<int64_t>(done) : -1;
        }
        if (request.result != 0 || bpf_map_lookup_elem(buffer_fd_, &zero, bytes.data()) != 0)
            return done > 0 ? static_cast<int64_t>(done) : -1;
        std::memcpy(static_cast<uint8_t *>(buffer) + done, bytes.data(), chunk);
        done += chunk;
    }
    return static_cast<int64_t>(length);
}

} // namespace dtrace::fbt
