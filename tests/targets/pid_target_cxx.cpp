/*
 * pid_target_cxx.cpp: the C++ test target of the pid and fpid providers: the
 * steps of the C target plus a C++ call tree (names in namespaces, methods,
 * templates) for demangled stacks and for mangled probe function names:
 *
 *   cxx:N         shop::Cart::add 2N times, shop::scale<long> N times,
 *                 shop::Cart::total N times
 *   cxx-expect:N  print "mangled-name count" for cxx:N, one a line
 *   throws:N      shop::attempt N times, each calling shop::checkout, which
 *                 calls shop::refuse for odd i, which throws: the exception
 *                 unwinds through checkout and refuse and is caught in
 *                 attempt; prints "caught K" (K = N / 2)
 *   throws-expect:N  print "entry|return mangled-name count" for throws:N
 *                 (a frame the exception leaves does not return)
 */
#include "target_steps.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

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

__attribute__((noinline, noipa)) void refuse(long i) {
    throw std::runtime_error("refused " + std::to_string(i));
}

__attribute__((noinline, noipa)) long checkout(long i) {
    if (i % 2 != 0)
        refuse(i);
    return i;
}

__attribute__((noinline, noipa)) bool attempt(long i) {
    try {
        checkout(i);
        return true;
    } catch (const std::runtime_error &) {
        return false;
    }
}

} // namespace shop

static void run_throws(long rounds) {
    long caught = 0;
    for (long i = 0; i < rounds; i++)
        caught += shop::attempt(i) ? 0 : 1;
    std::printf("caught %ld\n", caught);
}

static void expect_throws(long rounds) {
    const long odd = rounds / 2;
    std::printf("entry _ZN4shop7attemptEl %ld\n", rounds);
    std::printf("return _ZN4shop7attemptEl %ld\n", rounds);
    std::printf("entry _ZN4shop8checkoutEl %ld\n", rounds);
    std::printf("return _ZN4shop8checkoutEl %ld\n", rounds - odd);
    std::printf("entry _ZN4shop6refuseEl %ld\n", odd);
}

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
    else if (std::strncmp(arg, "throws:", 7) == 0)
        run_throws(std::strtol(arg + 7, nullptr, 10));
    else if (std::strncmp(arg, "throws-expect:", 14) == 0)
        expect_throws(std::strtol(arg + 14, nullptr, 10));
    else
        return 0;
    return 1;
}

int main(int argc, char **argv) {
    return target_run_steps(argc, argv, cxx_step);
}
