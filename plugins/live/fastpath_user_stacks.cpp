// fastpath_user_stacks.cpp: a process's unwind table into the walk's maps (see fastpath_user_stacks.h).
//
// What a walk on another CPU may read while the table is written. A walk
// reads a mapping entry field by field (start and end, then nrows, then
// start again, first_block and bias), each word either before or after a
// concurrent write of the entry; an entry whose nrows it reads as 0 sends
// its event to user space. So the invariant: a walk that reads an entry's
// nrows as non-zero reads every other field of that entry as one write of
// it, and the rows and blocks those fields name are written and stay until
// it ends. An entry changes in three steps:
//   A. the old entry with nrows 0 (only nrows changes);
//      a grace period: every walk that read the old nrows has ended;
//   rows and blocks of new files, where no entry a walk can use names them;
//   B. the new entry with nrows 0 (a walk mixing A and B reads nrows 0);
//      a grace period: every walk that read A's start or end has ended;
//   C. nrows set (by the marks' publisher; B and C differ only in nrows).
// Entries that do not change are not written, and walks through them go on.
// Rows and blocks are appended after those of the files the table holds;
// when they no longer fit, every entry changes and the maps are laid out
// again from the start (after step A and its grace period, no walk reads
// them).
#include "fastpath_user_stacks.h"

#include "process_maps.h"

#include <bpf/bpf.h>

#include <algorithm>
#include <bitset>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

namespace dtrace::live {

namespace {

// How many times a write starts again when a mapping call of the process
// came during it, before it gives up (the table stays disabled).
constexpr int kWriteAttempts = 8;

constexpr dtrace_fastpath_user_mapping kUnusedEntry{UINT64_MAX, UINT64_MAX, 0, 0, 0, 0, 0};

std::optional<std::vector<stacks::Mapping>> mappings_of(int64_t pid, std::string &error) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
    std::stringstream text;
    if (in)
        text << in.rdbuf();
    if (!in || text.str().empty()) {
        error = "process " + std::to_string(pid) + " is gone";
        return std::nullopt;
    }
    std::vector<stacks::Mapping> mappings = stacks::parse_maps(text.str());
    if (mappings.size() > DTRACE_UNWIND_MAPPINGS_MAX) {
        error = "process " + std::to_string(pid) + " maps more than " + std::to_string(DTRACE_UNWIND_MAPPINGS_MAX) +
                " executable files";
        return std::nullopt;
    }
    return mappings;
}

// Writes `count` values to keys first_key.. of a map in one system call.
bool write_run(FastpathLoader &loader, int32_t map, uint32_t first_key, const void *values, uint32_t count,
               std::string &error) {
    if (count == 0)
        return true;
    std::vector<uint32_t> keys(count);
    std::iota(keys.begin(), keys.end(), first_key);
    if (bpf_map_update_batch(loader.map_fd(map), keys.data(), values, &count, nullptr) != 0) {
        error = "cannot write the ustack table (BPF_MAP_UPDATE_BATCH): " + std::string(std::strerror(errno));
        return false;
    }
    return true;
}

// Writes entries[i] for each i of `which` into the mappings map, nrows 0.
bool write_disabled(FastpathLoader &loader, int32_t map,
                    const std::array<dtrace_fastpath_user_mapping, DTRACE_UNWIND_MAPPINGS_MAX> &entries,
                    const std::bitset<DTRACE_UNWIND_MAPPINGS_MAX> &which, std::string &error) {
    std::vector<uint32_t> keys;
    std::vector<dtrace_fastpath_user_mapping> values;
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        if (which[i]) {
            keys.push_back(i);
            values.push_back(entries[i]);
            values.back().nrows = 0;
        }
    auto count = static_cast<uint32_t>(keys.size());
    if (count != 0 && bpf_map_update_batch(loader.map_fd(map), keys.data(), values.data(), &count, nullptr) != 0) {
        error = "cannot write the ustack table's mappings (BPF_MAP_UPDATE_BATCH): " + std::string(std::strerror(errno));
        return false;
    }
    return true;
}

// The mappings map's entry naming the process whose table it holds: the
// walk declines the other processes' events.
bool write_process_entry(FastpathLoader &loader, int32_t map, int64_t pid, std::string &error) {
    const uint32_t key = DTRACE_UNWIND_PROCESS_ENTRY;
    const dtrace_fastpath_user_mapping entry{static_cast<uint64_t>(pid), static_cast<uint64_t>(pid), 0, 0, 0, 0, 0};
    if (bpf_map_update_elem(loader.map_fd(map), &key, &entry, BPF_ANY) != 0) {
        error = "cannot write the ustack table's process: " + std::string(std::strerror(errno));
        return false;
    }
    return true;
}

bool same_place(const dtrace_fastpath_user_mapping &a, const dtrace_fastpath_user_mapping &b) {
    return a.start == b.start && a.end == b.end && a.bias == b.bias && a.first_row == b.first_row &&
           a.first_block == b.first_block;
}

} // namespace

bool write_user_stack_table(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                            std::string &error) {
    std::optional<std::vector<stacks::Mapping>> mappings = mappings_of(pid, error);
    if (!mappings)
        return false;
    const std::optional<stacks::KernelUnwindTable> table =
        stacks::kernel_unwind_table(*mappings, [&](const std::string &path) { return images.image_for(path, pid); });
    return table && write_run(loader, maps.rows, 0, table->rows.data(), table->rows.size(), error) &&
           write_run(loader, maps.blocks, 0, table->blocks.data(), table->blocks.size(), error) &&
           write_run(loader, maps.mappings, 0, table->mappings.data(), table->mappings.size(), error) &&
           write_process_entry(loader, maps.mappings, pid, error);
}

std::optional<int64_t> table_process(dtrace_host *host, const dtrace_host_ops *ops) {
    dtrace_target_info target{};
    target.struct_size = sizeof target;
    if (ops->struct_size < offsetof(dtrace_host_ops, get_target) + sizeof ops->get_target ||
        ops->get_target == nullptr || ops->get_target(host, 0, &target) != 0 || target.state == DTRACE_TARGET_EXITED)
        return std::nullopt;
    return target.pid;
}

UserStackTable::UserStackTable() = default;
UserStackTable::~UserStackTable() = default;

bool UserStackTable::fill(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                          std::string &error) {
    if (bound_ && bound_->maps == maps && bound_->pid == pid)
        return true; // another probe of the same process: written already
    if (bound_ && bound_->maps == maps) {
        error = "the walk's maps hold process " + std::to_string(bound_->pid) + "'s table already";
        return false;
    }
    Binding binding;
    binding.pid = pid;
    binding.maps = maps;
    binding.entries.fill(dtrace_fastpath_user_mapping{});
    // Attached before the first read of /proc/PID/maps, so that no mapping call after it goes unseen.
    binding.marks = UserStackMarks::attach(loader.map_fd(maps.mappings), pid, error);
    if (binding.marks == nullptr || !write_process_entry(loader, maps.mappings, pid, error) ||
        !write(loader, binding, images, error))
        return false;
    bound_ = std::move(binding);
    return true;
}

bool UserStackTable::refresh(FastpathLoader &loader, int64_t pid, stacks::ImageCache &images, std::string &error) {
    return !bound_ || bound_->pid != pid || write(loader, *bound_, images, error);
}

bool UserStackTable::follow_marks(FastpathLoader &loader, stacks::ImageCache &images, std::string &error) {
    return !marked() || write(loader, *bound_, images, error);
}

bool UserStackTable::marked() const {
    return bound_ && bound_->marks->marks() != bound_->marks_seen;
}

bool UserStackTable::write(FastpathLoader &loader, Binding &binding, stacks::ImageCache &images, std::string &error) {
    last_write_ = {};
    for (int attempt = 0; attempt < kWriteAttempts; attempt++) {
        bool raced = false;
        if (!write_once(loader, binding, images, raced, error))
            break;
        if (!raced)
            return true;
        error = "process " + std::to_string(binding.pid) + " kept changing its mappings while its table was written";
    }
    // A table not written again sends every walk to user space, rather
    // than have one read rows of a file no longer mapped there.
    disable(loader, binding);
    return false;
}

void UserStackTable::disable(FastpathLoader &loader, Binding &binding) {
    std::string ignored;
    (void)write_disabled(loader, binding.maps.mappings, binding.entries,
                         std::bitset<DTRACE_UNWIND_MAPPINGS_MAX>().set(), ignored);
    for (dtrace_fastpath_user_mapping &entry : binding.entries)
        entry.nrows = 0;
}

UserStackTable::Entries UserStackTable::lay_out(Binding &binding, const std::vector<stacks::Mapping> &mappings,
                                                stacks::ImageCache &images, bool &relaid) {
    // Each mapping's file, its rows computed once per file.
    std::vector<std::optional<FileKey>> keys(mappings.size());
    for (size_t i = 0; i < mappings.size(); i++) {
        const stacks::Mapping &m = mappings[i];
        std::shared_ptr<stacks::ElfImage> image = images.image_for(m.path, binding.pid);
        const std::optional<uint64_t> link = image ? image->address_of_offset(m.file_offset) : std::nullopt;
        if (!link)
            continue;
        keys[i] = FileKey{m.path, *link, m.end - m.start};
        if (!binding.regions.contains(*keys[i])) {
            std::optional<stacks::FileUnwindRows> file = stacks::file_unwind_rows(*image, *link, m.end - m.start);
            Region region;
            region.first_row = region.first_block = UINT32_MAX; // not placed yet
            if (file)
                region.file = std::move(*file);
            binding.regions.emplace(*keys[i], std::move(region));
        }
    }
    // New files after the others; all of them again from 0 when that does not fit.
    auto place = [&](uint32_t rows_from, uint32_t blocks_from) {
        for (const std::optional<FileKey> &key : keys) {
            Region *region = key ? &binding.regions.at(*key) : nullptr;
            if (region == nullptr || region->file.rows.empty() || region->first_row != UINT32_MAX)
                continue; // no rows, or placed already (a file mapped twice, or earlier)
            if (rows_from + region->file.rows.size() > DTRACE_UNWIND_ROWS_MAX ||
                blocks_from + region->file.blocks.size() > DTRACE_UNWIND_BLOCKS_MAX)
                return false;
            region->first_row = rows_from;
            region->first_block = blocks_from;
            rows_from += static_cast<uint32_t>(region->file.rows.size());
            blocks_from += static_cast<uint32_t>(region->file.blocks.size());
        }
        return true;
    };
    const uint32_t appended_row = binding.rows_used, appended_block = binding.blocks_used;
    relaid = false;
    if (!place(appended_row, appended_block)) {
        std::erase_if(binding.regions, [&](const auto &entry) {
            return std::find(keys.begin(), keys.end(), entry.first) == keys.end();
        });
        for (auto &[key, region] : binding.regions)
            region.first_row = region.first_block = UINT32_MAX;
        relaid = true;
        (void)place(0, 0); // what does not fit has no rows (its events go to user space)
    }

    Entries wanted;
    wanted.fill(kUnusedEntry);
    for (size_t i = 0; i < mappings.size(); i++) {
        const stacks::Mapping &m = mappings[i];
        wanted[i] = dtrace_fastpath_user_mapping{m.start, m.end, 0, 0, 0, 0, 0};
        const Region *region = keys[i] ? &binding.regions.at(*keys[i]) : nullptr;
        if (region == nullptr || region->file.rows.empty() || region->first_row == UINT32_MAX)
            continue;
        wanted[i].bias = m.start - keys[i]->link_start;
        wanted[i].first_row = region->first_row;
        wanted[i].nrows = static_cast<uint32_t>(region->file.rows.size());
        wanted[i].first_block = region->first_block;
    }
    return wanted;
}

bool UserStackTable::write_new_rows(FastpathLoader &loader, Binding &binding, bool relaid, std::string &error) {
    // The rows and blocks no entry names yet (all of them, laid out again).
    std::vector<dtrace_fastpath_unwind_row> rows;
    std::vector<uint32_t> blocks;
    const uint32_t rows_from = relaid ? 0 : binding.rows_used, blocks_from = relaid ? 0 : binding.blocks_used;
    std::vector<const Region *> placed;
    for (const auto &[key, region] : binding.regions)
        if (!region.file.rows.empty() && region.first_row != UINT32_MAX && region.first_row >= rows_from)
            placed.push_back(&region);
    std::sort(placed.begin(), placed.end(),
              [](const Region *a, const Region *b) { return a->first_row < b->first_row; });
    for (const Region *region : placed) {
        rows.insert(rows.end(), region->file.rows.begin(), region->file.rows.end());
        for (uint32_t block : region->file.blocks)
            blocks.push_back(region->first_row + block);
    }
    if (!write_run(loader, binding.maps.rows, rows_from, rows.data(), static_cast<uint32_t>(rows.size()), error) ||
        !write_run(loader, binding.maps.blocks, blocks_from, blocks.data(), static_cast<uint32_t>(blocks.size()),
                   error))
        return false;
    binding.rows_used = rows_from + static_cast<uint32_t>(rows.size());
    binding.blocks_used = blocks_from + static_cast<uint32_t>(blocks.size());
    last_write_.rows += static_cast<uint32_t>(rows.size());
    last_write_.blocks += static_cast<uint32_t>(blocks.size());

    return true;
}

bool UserStackTable::write_once(FastpathLoader &loader, Binding &binding, stacks::ImageCache &images, bool &raced,
                                std::string &error) {
    // The marks first, then the sequence, then /proc (UserStackMarks::publish()).
    const uint64_t marks_before = binding.marks->marks();
    const uint64_t sequence = binding.marks->sequence();
    std::optional<std::vector<stacks::Mapping>> mappings = mappings_of(binding.pid, error);
    if (!mappings)
        return false;

    bool relaid = false;
    const Entries wanted = lay_out(binding, *mappings, images, relaid);
    std::bitset<DTRACE_UNWIND_MAPPINGS_MAX> changed, enabled, enabling;
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++) {
        changed[i] = relaid || !same_place(wanted[i], binding.entries[i]);
        enabled[i] = binding.entries[i].nrows != 0;
        enabling[i] = wanted[i].nrows != 0;
    }

    // A, and its grace period.
    if (!write_disabled(loader, binding.maps.mappings, binding.entries, changed & enabled, error))
        return false;
    last_write_.mappings += static_cast<uint32_t>((changed & enabled).count());
    const bool was_marked = marks_before != binding.marks_seen; // a mark disabled every entry meanwhile
    if ((changed & enabled).any() || (changed.any() && was_marked)) {
        if (!binding.marks->wait_for_walks(error))
            return false;
        last_write_.grace_periods++;
    }
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        if (changed[i])
            binding.entries[i].nrows = 0;

    if (!write_new_rows(loader, binding, relaid, error))
        return false;

    // B, and its grace period.
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        if (changed[i]) {
            binding.entries[i] = wanted[i];
            binding.entries[i].nrows = 0;
        }
    if (!write_disabled(loader, binding.maps.mappings, binding.entries, changed, error))
        return false;
    last_write_.mappings += static_cast<uint32_t>(changed.count());
    if ((changed & enabling).any()) {
        if (!binding.marks->wait_for_walks(error))
            return false;
        last_write_.grace_periods++;
    }

    // C: nrows, unless a mapping call came since /proc was read.
    std::array<uint32_t, DTRACE_UNWIND_MAPPINGS_MAX> nrows{};
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        nrows[i] = wanted[i].nrows;
    switch (binding.marks->publish(sequence, nrows, error)) {
    case UserStackMarks::Publish::Failed:
        return false;
    case UserStackMarks::Publish::Raced:
        raced = true;
        return true;
    case UserStackMarks::Publish::Done:
        break;
    }
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        binding.entries[i].nrows = nrows[i];
    binding.marks_seen = marks_before;
    return true;
}

} // namespace dtrace::live
