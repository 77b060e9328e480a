// The C++ anchor of `make bench` (f): C++17 std::to_chars (shortest round-trip form; libstdc++
// implements it with Ryu) writing the same doubles as `segue-bench numbers`, each followed by a
// comma, into one preallocated buffer. The doubles come from the .f64 files segue-bench saves
// (little-endian), so both writers see exactly the same numbers.
//
//   g++ -O2 -std=c++17 -o number-writer Benchmarks/number-writer.cpp
//   ./number-writer DIR/render.f64 DIR/random.f64
//
// One line per file, the median of 5 timed runs after one untimed run:
//   numbers stream=NAME writer=cpp-to_chars ns_per_number=X bytes=B
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

static std::vector<double> load(const char *path) {
    std::vector<double> values;
    FILE *file = std::fopen(path, "rb");
    if (!file) { std::perror(path); std::exit(1); }
    double value;
    while (std::fread(&value, sizeof value, 1, file) == 1) values.push_back(value);
    std::fclose(file);
    return values;
}

static size_t write_all(const std::vector<double> &values, std::vector<char> &buffer) {
    char *p = buffer.data();
    char *end = buffer.data() + buffer.size();
    for (double value : values) {
        p = std::to_chars(p, end, value).ptr;
        *p++ = ',';
    }
    return size_t(p - buffer.data());
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        std::vector<double> values = load(argv[i]);
        std::vector<char> buffer(values.size() * 32);
        size_t bytes = write_all(values, buffer);  // untimed
        std::vector<double> per_number;
        for (int run = 0; run < 5; run++) {
            auto start = std::chrono::steady_clock::now();
            bytes = write_all(values, buffer);
            auto stop = std::chrono::steady_clock::now();
            per_number.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / values.size());
        }
        std::sort(per_number.begin(), per_number.end());
        std::string name = argv[i];
        name = name.substr(name.find_last_of('/') + 1);
        name = name.substr(0, name.find('.'));
        std::printf("numbers stream=%s writer=cpp-to_chars ns_per_number=%.2f bytes=%zu\n", name.c_str(), per_number[2], bytes);
    }
    return 0;
}
