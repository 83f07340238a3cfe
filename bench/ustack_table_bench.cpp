// ustack_table_bench.cpp: what writing a process's table into the
// in-kernel ustack() walk's maps costs (plugins/live/fastpath_user_stacks.h),
// for this program (C++: libstdc++, libdw, libbpf... mapped), in one run:
//   - the writes alone: one bpf_map_update_elem() per entry (the table's
//     writes before batching) against one BPF_MAP_UPDATE_BATCH per map;
//   - a first write: the rows computed from the CFI and written one entry
//     at a time, against UserStackTable::fill() (batched writes, the marks
//     attached);
//   - after a dlopen() (libresolv.so.2): the whole table computed and
//     written again one entry at a time (as before) against
//     UserStackTable::follow_marks() (the new file's rows only, batched,
//     and the two grace periods of the mapping entries' three steps).
// Medians of RUNS runs (default 5), in milliseconds; timings on a shared VM
// spread widely: read the ratios. Root only.
#include "created_maps.h"
#include "fastpath/user_stacks.h"
#include "fastpath_user_stacks.h"
#include "process_maps.h"

#include <bpf/bpf.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace dtrace;
namespace stacks = dtrace::live::stacks;

namespace {

constexpr const char *kLibrary = "libresolv.so.2";

template <typename F> double ms_of(F f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

live::UserStackMaps fresh_maps(live::FastpathLoader &loader) {
    fastpath::MapPlan plan;
    const fastpath::UserStackWalk walk = fastpath::plan_user_stack_walk(plan, 4, false);
    std::vector<int32_t> handles;
    if (std::string error = test::create_maps(loader, plan, handles); !error.empty()) {
        std::fprintf(stderr, "ustack_table_bench: %s\n", error.c_str());
        std::exit(1);
    }
    return {handles[walk.rows_map], handles[walk.blocks_map], handles[walk.mappings_map]};
}

stacks::KernelUnwindTable compute(stacks::ImageCache &images) {
    std::ifstream in("/proc/self/maps");
    std::stringstream text;
    text << in.rdbuf();
    std::optional<stacks::KernelUnwindTable> table = stacks::kernel_unwind_table(
        stacks::parse_maps(text.str()), [&](const std::string &path) { return images.image_for(path, getpid()); });
    return table ? *table : stacks::KernelUnwindTable{};
}

// The table as it was written before batching: one system call per row, block and mapping.
void write_one_by_one(live::FastpathLoader &loader, const live::UserStackMaps &maps,
                      const stacks::KernelUnwindTable &table) {
    auto each = [&](int32_t map, const auto &values) {
        for (uint32_t i = 0; i < values.size(); i++)
            (void)bpf_map_update_elem(loader.map_fd(map), &i, &values[i], BPF_ANY);
    };
    each(maps.rows, table.rows);
    each(maps.blocks, table.blocks);
    each(maps.mappings, table.mappings);
}

// The same in one BPF_MAP_UPDATE_BATCH per map.
void write_batched(live::FastpathLoader &loader, const live::UserStackMaps &maps,
                   const stacks::KernelUnwindTable &table) {
    auto all = [&](int32_t map, const auto &values) {
        std::vector<uint32_t> keys(values.size());
        for (uint32_t i = 0; i < keys.size(); i++)
            keys[i] = i;
        auto count = static_cast<uint32_t>(keys.size());
        (void)bpf_map_update_batch(loader.map_fd(map), keys.data(), values.data(), &count, nullptr);
    };
    all(maps.rows, table.rows);
    all(maps.blocks, table.blocks);
    all(maps.mappings, table.mappings);
}

} // namespace

int main() {
    if (geteuid() != 0) {
        std::fprintf(stderr, "ustack_table_bench: needs root (BPF maps, tracepoint programs)\n");
        return 1;
    }
    const int runs = std::max(1, std::getenv("RUNS") ? std::atoi(std::getenv("RUNS")) : 5);
    live::FastpathLoader loader;
    std::vector<double> computing, one_by_one, batched, first_before, first_after, load_before, load_after;
    size_t rows = 0;
    live::UserStackTable::WriteCounts first_counts, load_counts;
    for (int run = 0; run < runs; run++) {
        stacks::ImageCache cold_before, cold_after; // each run computes the rows again, as a new dtrace would
        const live::UserStackMaps before = fresh_maps(loader), after = fresh_maps(loader);
        stacks::KernelUnwindTable full;
        computing.push_back(ms_of([&] { full = compute(cold_before); }));
        rows = full.rows.size();
        one_by_one.push_back(ms_of([&] { write_one_by_one(loader, before, full); }));
        batched.push_back(ms_of([&] { write_batched(loader, before, full); }));
        first_before.push_back(computing.back() + one_by_one.back());
        live::UserStackTable table;
        std::string error;
        first_after.push_back(ms_of([&] {
            if (!table.fill(loader, after, getpid(), cold_after, error))
                std::fprintf(stderr, "ustack_table_bench: %s\n", error.c_str());
        }));
        first_counts = table.last_write();

        void *library = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            std::fprintf(stderr, "ustack_table_bench: cannot load %s: %s\n", kLibrary, dlerror());
            return 1;
        }
        load_before.push_back(ms_of([&] { write_one_by_one(loader, before, compute(cold_before)); }));
        load_after.push_back(ms_of([&] {
            if (!table.follow_marks(loader, cold_after, error))
                std::fprintf(stderr, "ustack_table_bench: %s\n", error.c_str());
        }));
        load_counts = table.last_write();
        dlclose(library);
    }
    const double fb = median(first_before), fa = median(first_after), lb = median(load_before), la = median(load_after);
    std::printf("   this process's table: %zu rows, %u blocks; computing them from the CFI %.1f ms\n", rows,
                first_counts.blocks, median(computing));
    std::printf("   writing them: one call per entry %.1f ms, one batch per map %.1f ms: ratio %.3f\n",
                median(one_by_one), median(batched), median(batched) / median(one_by_one));
    std::printf("   first write (computing included): one call per entry %.1f ms, fill() %.1f ms: ratio %.2f\n", fb, fa,
                fa / fb);
    std::printf("   after dlopen(%s): all again one call per entry %.1f ms, only what changed %.1f ms "
                "(%u rows, %u mapping entries, %u grace periods): ratio %.2f\n",
                kLibrary, lb, la, load_counts.rows, load_counts.mappings, load_counts.grace_periods, la / lb);
    return 0;
}
