// stable_vector.h: an append-only sequence that others read while it grows.
//
// Plugins register probes from their own threads while other threads fire
// probes by id, and the consumer reads enabled clauses by epid while a late
// probe gains clauses. A std::vector would move its elements when it grows
// under those readers; this one allocates fixed-size chunks that never move,
// so an element, once published, stays where it is for the sequence's life.
//
// Writers serialise among themselves (the owner's lock) and fill an element
// before publishing it; readers need no lock: an index below size() (read
// with acquire) refers to a fully written element.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

namespace dtrace::engine {

template <typename T, size_t ChunkBits = 8, size_t MaxChunks = size_t{1} << 15> class StableVector {
  public:
    static constexpr size_t kChunkSize = size_t{1} << ChunkBits;
    static constexpr size_t kCapacity = kChunkSize * MaxChunks;

    StableVector() : chunks_(new std::atomic<T *>[MaxChunks]()) {}
    ~StableVector() {
        for (size_t c = 0; c < MaxChunks && chunks_[c].load(std::memory_order_relaxed); c++)
            delete[] chunks_[c].load(std::memory_order_relaxed);
    }
    StableVector(const StableVector &) = delete;
    StableVector &operator=(const StableVector &) = delete;

    size_t size() const { return size_.load(std::memory_order_acquire); }
    bool empty() const { return size() == 0; }

    // An element below size(): the caller checks the bound.
    T &operator[](size_t i) const {
        return chunks_[i >> ChunkBits].load(std::memory_order_relaxed)[i & (kChunkSize - 1)];
    }

    // The next element, default-constructed, for the writer to fill; nullptr
    // when the sequence is full. It becomes visible to readers at publish().
    T *prepare() {
        const size_t i = size_.load(std::memory_order_relaxed);
        if (i >= kCapacity)
            return nullptr;
        std::atomic<T *> &chunk = chunks_[i >> ChunkBits];
        if (!chunk.load(std::memory_order_relaxed))
            chunk.store(new T[kChunkSize](), std::memory_order_release);
        return &chunk.load(std::memory_order_relaxed)[i & (kChunkSize - 1)];
    }
    void publish() { size_.fetch_add(1, std::memory_order_release); }

    template <typename F> void for_each(F &&visit) const {
        const size_t n = size();
        for (size_t i = 0; i < n; i++)
            visit((*this)[i]);
    }

  private:
    std::unique_ptr<std::atomic<T *>[]> chunks_;
    std::atomic<size_t> size_{0};
};

} // namespace dtrace::engine
