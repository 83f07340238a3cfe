/*
 * pid_target_cxx.cpp: the C++ test target of the pid and fpid providers: the
 * steps of the C target plus a C++ call tree (names in namespaces, methods,
 * templates) for demangled stacks and for mangled probe function names:
 *
 *   cxx:N         shop::Cart::add 2N times, shop::scale<long> N times,
 *                 shop::Cart::total N times
 *   cxx-expect:N  print "mangled-name count" for cxx:N, one a line
 */
#include "target_steps.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shop {

class Cart {
  public:
    __attribute__((noinline, noipa)) void add(int price) { sum_ += price; }
    __attribute__((noinline, noipa)) long total() const { return sum_; }

  private:
    long sum_ = 0;
};

template <typename T> __attribute__((noinline, noipa)) T scale(T value, int factor) {
    return value * factor;
}

} // namespace shop

static void run_cxx(long rounds) {
    shop::Cart cart;
    volatile long sink = 0;
    for (long i = 0; i < rounds; i++) {
        cart.add(static_cast<int>(i));
        cart.add(1);
        sink = sink + shop::scale<long>(i, 3);
        sink = sink + cart.total();
    }
}

static void expect_cxx(long rounds) {
    std::printf("_ZN4shop4Cart3addEi %ld\n", rounds * 2);
    std::printf("_ZN4shop5scaleIlEET_S1_i %ld\n", rounds);
    std::printf("_ZNK4shop4Cart5totalEv %ld\n", rounds);
}

static int cxx_step(const char *arg) {
    if (std::strncmp(arg, "cxx:", 4) == 0)
        run_cxx(std::strtol(arg + 4, nullptr, 10));
    else if (std::strncmp(arg, "cxx-expect:", 11) == 0)
        expect_cxx(std::strtol(arg + 11, nullptr, 10));
    else
        return 0;
    return 1;
}

int main(int argc, char **argv) {
    return target_run_steps(argc, argv, cxx_step);
}
