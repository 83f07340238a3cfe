// fastpath_loader.cpp: maps, programs and map reads with libbpf's low-level
// calls (see fastpath_loader.h; the attachments are fastpath_attach.cpp's).
#include "fastpath_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <asm/ptrace.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <cstddef>
#include <iterator>
#include <linux/bpf.h>

namespace dtrace::live {

namespace {

bpf_map_type kernel_map_type(uint32_t type) {
    switch (type) {
    case DTRACE_BPF_MAP_HASH:
        return BPF_MAP_TYPE_HASH;
    case DTRACE_BPF_MAP_PERCPU_HASH:
        return BPF_MAP_TYPE_PERCPU_HASH;
    case DTRACE_BPF_MAP_ARRAY:
        return BPF_MAP_TYPE_ARRAY;
    case DTRACE_BPF_MAP_PERCPU_ARRAY:
        return BPF_MAP_TYPE_PERCPU_ARRAY;
    case DTRACE_BPF_MAP_RINGBUF:
        return BPF_MAP_TYPE_RINGBUF;
    case DTRACE_BPF_MAP_PROG_ARRAY:
        return BPF_MAP_TYPE_PROG_ARRAY;
    default:
        return BPF_MAP_TYPE_UNSPEC;
    }
}

bool is_per_cpu(uint32_t type) {
    return type == DTRACE_BPF_MAP_PERCPU_HASH || type == DTRACE_BPF_MAP_PERCPU_ARRAY;
}

bool is_hash(uint32_t type) {
    return type == DTRACE_BPF_MAP_HASH || type == DTRACE_BPF_MAP_PERCPU_HASH;
}

void copy_log(const dtrace_bpf_program &program, const std::string &text) {
    if (program.log == nullptr || program.log_size == 0)
        return;
    const size_t n = std::min<size_t>(text.size(), program.log_size - 1);
    std::memcpy(program.log, text.data(), n);
    program.log[n] = '\0';
}

struct TaskOffsets {
    uint32_t real_parent = 0, tgid = 0, exec_runtime = 0;
    uint32_t pid = 0, comm = 0, cred = 0, cred_uid = 0, cred_gid = 0; // another task's builtins
    uint32_t mm = 0, mm_start_stack = 0;                              // where the main thread's stack starts
};

// The byte offset of member `name` of struct type `id` (or of a struct or
// union without a name in it: mm_struct keeps its fields in one), and its
// type; 0 when absent.
uint32_t member_offset(const btf *types, uint32_t id, const char *name, uint32_t *type = nullptr) {
    const btf_type *t = btf__type_by_id(types, id);
    if (t == nullptr || !(btf_is_struct(t) || btf_is_union(t)))
        return 0;
    const btf_member *m = btf_members(t);
    for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
        const char *member = btf__name_by_offset(types, m->name_off);
        if (member != nullptr && std::strcmp(member, name) == 0) {
            if (type != nullptr)
                *type = m->type;
            return btf_member_bit_offset(t, i) / 8;
        }
        if (member == nullptr || *member == '\0') {
            const int inner = btf__resolve_type(types, m->type);
            const uint32_t found = inner > 0 ? member_offset(types, inner, name, type) : 0;
            if (found != 0)
                return btf_member_bit_offset(t, i) / 8 + found;
        }
    }
    return 0;
}

// Read once from /sys/kernel/btf/vmlinux.
const TaskOffsets &task_offsets() {
    static const TaskOffsets offsets = [] {
        TaskOffsets out;
        btf *types = btf__load_vmlinux_btf();
        if (types == nullptr)
            return out;
        const int task = btf__find_by_name_kind(types, "task_struct", BTF_KIND_STRUCT);
        if (task > 0) {
            out.real_parent = member_offset(types, task, "real_parent");
            out.tgid = member_offset(types, task, "tgid");
            uint32_t se_type = 0;
            const uint32_t se = member_offset(types, task, "se", &se_type);
            const uint32_t runtime = se ? member_offset(types, se_type, "sum_exec_runtime") : 0;
            out.exec_runtime = runtime ? se + runtime : 0;
            out.pid = member_offset(types, task, "pid");
            out.comm = member_offset(types, task, "comm");
            uint32_t cred_pointer = 0;
            out.cred = member_offset(types, task, "cred", &cred_pointer);
            const btf_type *pointer = btf__type_by_id(types, cred_pointer);
            const uint32_t cred = pointer && btf_is_ptr(pointer) ? btf__resolve_type(types, pointer->type) : 0;
            out.cred_uid = cred > 0 ? member_offset(types, cred, "uid") : 0;
            out.cred_gid = cred > 0 ? member_offset(types, cred, "gid") : 0;
            if (out.cred_uid == 0 || out.cred_gid == 0)
                out.cred = 0; // uid and gid stay unknown
            uint32_t mm_pointer = 0;
            out.mm = member_offset(types, task, "mm", &mm_pointer);
            const btf_type *to_mm = btf__type_by_id(types, mm_pointer);
            const int mm = to_mm && btf_is_ptr(to_mm) ? btf__resolve_type(types, to_mm->type) : 0;
            out.mm_start_stack = mm > 0 ? member_offset(types, mm, "start_stack") : 0;
            if (out.mm_start_stack == 0)
                out.mm = 0;
        }
        btf__free(types);
        return out;
    }();
    return offsets;
}

} // namespace

void FastpathLoader::describe_task(dtrace_fastpath_probe &layout) {
    if (layout.struct_size < offsetof(dtrace_fastpath_probe, task_exec_runtime) + sizeof layout.task_exec_runtime)
        return;
    const TaskOffsets &offsets = task_offsets();
    layout.task_real_parent = offsets.real_parent;
    layout.task_tgid = offsets.tgid;
    layout.task_exec_runtime = offsets.exec_runtime;
    if (layout.struct_size < offsetof(dtrace_fastpath_probe, cred_gid) + sizeof layout.cred_gid)
        return;
    layout.task_pid = offsets.pid;
    layout.task_comm = offsets.comm;
    layout.task_cred = offsets.cred;
    layout.cred_uid = offsets.cred_uid;
    layout.cred_gid = offsets.cred_gid;
    if (layout.struct_size < offsetof(dtrace_fastpath_probe, mm_start_stack) + sizeof layout.mm_start_stack)
        return;
    layout.task_mm = offsets.mm;
    layout.mm_start_stack = offsets.mm_start_stack;
}

void FastpathLoader::register_arguments(dtrace_fastpath_probe &layout, uint32_t nargs, bool user_stack) {
    constexpr uint16_t kRegisters[] = {offsetof(pt_regs, rdi), offsetof(pt_regs, rsi), offsetof(pt_regs, rdx),
                                       offsetof(pt_regs, rcx), offsetof(pt_regs, r8),  offsetof(pt_regs, r9)};
    layout.flags |= DTRACE_FASTPATH_ARG_FIELDS;
    layout.nargs = std::min(nargs, DTRACE_FASTPATH_MAX_ARGS);
    for (uint32_t i = 0; i < layout.nargs; ++i) {
        if (i < std::size(kRegisters)) {
            layout.arg_field_offset[i] = kRegisters[i];
            layout.arg_field_size[i] = 8;
        } else if (user_stack) {
            layout.arg_field_offset[i] = offsetof(pt_regs, rsp);
            layout.arg_field_size[i] = DTRACE_FASTPATH_ARG_FIELD_USER_WORD;
            layout.arg_field_user_displacement[i] = static_cast<uint16_t>(8 * (i - std::size(kRegisters) + 1));
        }
    }
}

FastpathLoader::~FastpathLoader() {
    detach_all();
    for (int fd : programs_)
        close(fd);
    for (const Map &m : maps_) {
        ring_buffer__free(m.ring);
        close(m.fd);
    }
}

int32_t FastpathLoader::create_map(const dtrace_bpf_map_spec &spec, std::string &error) {
    const bpf_map_type type = kernel_map_type(spec.type);
    const bool ring = type == BPF_MAP_TYPE_RINGBUF;
    if (type == BPF_MAP_TYPE_UNSPEC || spec.max_entries == 0 || (spec.key_size == 0) != ring ||
        (spec.value_size == 0) != ring) {
        error = "cannot create map " + std::string(spec.name ? spec.name : "") + ": an invalid specification";
        return -1;
    }
    LIBBPF_OPTS(bpf_map_create_opts, opts);
    // Hash maps take memory as entries arrive: a session's maps are sized
    // for the worst case (aggsize, dynvarsize) and rarely fill.
    if (is_hash(spec.type))
        opts.map_flags = BPF_F_NO_PREALLOC;
    const int fd = bpf_map_create(type, spec.name, spec.key_size, spec.value_size, spec.max_entries, &opts);
    if (fd < 0) {
        error = "cannot create map " + std::string(spec.name ? spec.name : "") + ": " + std::strerror(errno);
        return -1;
    }
    maps_.push_back({fd, spec, nullptr, nullptr});
    return static_cast<int32_t>(maps_.size() - 1);
}

void FastpathLoader::set_program_kind(uint32_t program_type, uint32_t expected_attach_type) {
    program_type_ = program_type;
    expected_attach_type_ = expected_attach_type;
}

int32_t FastpathLoader::load_program(const dtrace_bpf_program &program) {
    std::vector<bpf_insn> insns(program.ninsns);
    std::memcpy(insns.data(), program.insns, insns.size() * sizeof(bpf_insn));
    for (bpf_insn &insn : insns) {
        if (insn.code != (BPF_LD | BPF_DW | BPF_IMM) || insn.src_reg != BPF_PSEUDO_MAP_FD)
            continue;
        const uint32_t index = static_cast<uint32_t>(insn.imm);
        if (index >= program.nmaps || program.maps[index] < 0 ||
            static_cast<size_t>(program.maps[index]) >= maps_.size()) {
            copy_log(program, "the program names map " + std::to_string(index) + ", which it was not given");
            return -1;
        }
        insn.imm = maps_[program.maps[index]].fd;
    }
    // A raw tracepoint's context (DTRACE_FASTPATH_RAW_TRACEPOINT) is a program type of its own.
    const bool raw = program.struct_size >= offsetof(dtrace_bpf_program, layout_flags) + sizeof program.layout_flags &&
                     (program.layout_flags & DTRACE_FASTPATH_RAW_TRACEPOINT) != 0;
    const bpf_prog_type type = raw ? BPF_PROG_TYPE_RAW_TRACEPOINT : static_cast<bpf_prog_type>(program_type_);
    // Loaded without a log first (the verifier is faster); with one only to say why it refused.
    LIBBPF_OPTS(bpf_prog_load_opts, quiet, .expected_attach_type = static_cast<bpf_attach_type>(expected_attach_type_));
    int fd = bpf_prog_load(type, program.name, "GPL", insns.data(), insns.size(), &quiet);
    if (fd < 0) {
        const int first_error = errno;
        std::string log(1u << 20, '\0');
        LIBBPF_OPTS(bpf_prog_load_opts, opts,
                    .expected_attach_type = static_cast<bpf_attach_type>(expected_attach_type_));
        opts.log_level = 1;
        opts.log_size = static_cast<uint32_t>(log.size());
        opts.log_buf = log.data();
        fd = bpf_prog_load(type, program.name, "GPL", insns.data(), insns.size(), &opts);
        if (fd < 0) {
            copy_log(program, std::string(std::strerror(first_error)) + "\n" + log.c_str());
            return -1;
        }
    }
    programs_.push_back(fd);
    if (misses_ != nullptr)
        misses_->watch(std::span<const int>(&fd, 1));
    return static_cast<int32_t>(programs_.size() - 1);
}

int FastpathLoader::program_fd(int32_t program) const {
    return program >= 0 && static_cast<size_t>(program) < programs_.size() ? programs_[program] : -1;
}

bool FastpathLoader::set_way_back(int32_t program_array, int program_fd) {
    const uint32_t index = 0;
    std::string ignored; // the installer keeps the probe's clauses in user space, saying why
    return program_fd >= 0 && update_map(program_array, &index, &program_fd, ignored);
}

bool FastpathLoader::update_map(int32_t map, const void *key, const void *value, std::string &error) {
    if (map < 0 || static_cast<size_t>(map) >= maps_.size()) {
        error = "updating an unknown map (" + std::to_string(map) + ")";
        return false;
    }
    if (bpf_map_update_elem(maps_[map].fd, key, value, BPF_ANY) != 0) {
        error = "cannot update map " + std::string(maps_[map].spec.name ? maps_[map].spec.name : "") + ": " +
                std::strerror(errno);
        return false;
    }
    return true;
}

int FastpathLoader::map_fd(int32_t map) const {
    return map < 0 || static_cast<size_t>(map) >= maps_.size() ? -1 : maps_[map].fd;
}

bool FastpathLoader::read_map(int32_t map, dtrace_bpf_map_entry_fn fn, void *arg, std::string &error) const {
    if (map < 0 || static_cast<size_t>(map) >= maps_.size()) {
        error = "reading an unknown map (" + std::to_string(map) + ")";
        return false;
    }
    const Map &m = maps_[map];
    const int cpus = is_per_cpu(m.spec.type) ? libbpf_num_possible_cpus() : 1;
    if (cpus <= 0) {
        error = "cannot count the possible CPUs";
        return false;
    }
    const size_t stride = is_per_cpu(m.spec.type) ? (m.spec.value_size + 7) / 8 * 8 : m.spec.value_size;
    std::vector<uint8_t> key(m.spec.key_size), next(m.spec.key_size), values(stride * cpus);
    const void *previous = nullptr;
    while (bpf_map_get_next_key(m.fd, previous, next.data()) == 0) {
        if (bpf_map_lookup_elem(m.fd, next.data(), values.data()) == 0)
            fn(arg, next.data(), values.data(), static_cast<uint32_t>(cpus));
        key.swap(next);
        previous = key.data();
    }
    return true;
}

bool FastpathLoader::read_ring(int32_t map, dtrace_bpf_ring_record_fn fn, void *arg, std::string &error) {
    if (map < 0 || static_cast<size_t>(map) >= maps_.size() || maps_[map].spec.type != DTRACE_BPF_MAP_RINGBUF) {
        error = "reading records from a map that is not a ring (" + std::to_string(map) + ")";
        return false;
    }
    Map &m = maps_[map];
    if (m.ring == nullptr) {
        m.reader = std::make_unique<RingReader>();
        auto on_record = [](void *ctx, void *data, size_t size) {
            const RingReader &r = *static_cast<RingReader *>(ctx);
            r.fn(r.arg, data, static_cast<uint32_t>(size));
            return 0;
        };
        m.ring = ring_buffer__new(m.fd, on_record, m.reader.get(), nullptr);
        if (m.ring == nullptr) {
            error =
                "cannot read the ring map " + std::string(m.spec.name ? m.spec.name : "") + ": " + std::strerror(errno);
            return false;
        }
    }
    *m.reader = RingReader{fn, arg};
    if (ring_buffer__consume(m.ring) < 0) {
        error = "cannot read the ring map " + std::string(m.spec.name ? m.spec.name : "") + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

int FastpathLoader::report(const std::string &error) const {
    if (ops_ != nullptr)
        ops_->report_error(host_, error.c_str());
    return -1;
}

int32_t FastpathLoader::create_map(const dtrace_bpf_map_spec &spec) {
    std::string error;
    const int32_t handle = create_map(spec, error);
    return handle >= 0 ? handle : report(error);
}

int FastpathLoader::read_map(int32_t map, dtrace_bpf_map_entry_fn fn, void *arg) {
    std::string error;
    return read_map(map, fn, arg, error) ? 0 : report(error);
}

int FastpathLoader::update_map(int32_t map, const void *key, const void *value) {
    std::string error;
    return update_map(map, key, value, error) ? 0 : report(error);
}

int FastpathLoader::read_ring(int32_t map, dtrace_bpf_ring_record_fn fn, void *arg) {
    std::string error;
    return read_ring(map, fn, arg, error) ? 0 : report(error);
}

} // namespace dtrace::live
