// usdt_thrower.cpp: throws, rethrows and catches exactly N exceptions (the
// argument, 20 by default), for libstdc++'s own USDT probes (check_usdt.sh).
#include <cstdlib>
#include <stdexcept>

int main(int argc, char **argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 20;
    int caught = 0;
    for (int i = 0; i < n; i++) {
        try {
            try {
                throw std::runtime_error("thrown");
            } catch (...) {
                throw;
            }
        } catch (const std::exception &) {
            caught++;
        }
    }
    return caught == n ? 0 : 1;
}
