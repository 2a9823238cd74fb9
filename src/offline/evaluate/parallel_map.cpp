#include "kfm/offline/parallel_map.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "offline/evaluate/aligned_workspace.hpp"

namespace kfm::offline {

unsigned resolve_thread_count(unsigned threads) noexcept {
    if (threads != 0) return threads;
    const unsigned cores = std::thread::hardware_concurrency();
    return cores == 0 ? 1 : cores;
}

void map_rows_parallel(const kfm::map& map, const float* x, std::size_t n, std::size_t d, float* out,
                       unsigned threads) {
    if (n == 0) return;
    const std::size_t out_dim = map.output_dim();
    // 64-row blocks bound each thread's workspace; threads take the next block from a shared counter, so
    // an unevenly loaded machine still keeps every thread busy.
    const std::size_t block = 64;
    const std::size_t blocks = (n + block - 1) / block;
    const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(resolve_thread_count(threads), blocks));
    const std::size_t workspace_size = kfm::workspace_bytes(map, std::min(block, n));

    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    std::size_t error_begin = n;  // the lowest refused block, so the message does not depend on timing
    kfm::status error_status = kfm::status::ok;

    auto work = [&] {
        const aligned_workspace workspace(workspace_size);
        for (std::size_t b = next.fetch_add(1); b < blocks && !failed.load(); b = next.fetch_add(1)) {
            const std::size_t begin = b * block;
            const std::size_t count = std::min(block, n - begin);
            const kfm::status s = kfm::transform_batch(map, x + begin * d, count, d, d, out + begin * out_dim,
                                                       out_dim, workspace.data(), workspace.size());
            if (s != kfm::status::ok) {
                const std::lock_guard<std::mutex> lock(error_mutex);
                if (begin < error_begin) {
                    error_begin = begin;
                    error_status = s;
                }
                failed.store(true);
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    try {
        for (unsigned t = 1; t < workers; ++t) pool.emplace_back(work);
    } catch (...) {  // the system refused a thread: stop and join the started ones before rethrowing
        failed.store(true);
        for (std::thread& t : pool) t.join();
        throw;
    }
    work();
    for (std::thread& t : pool) t.join();
    if (error_status != kfm::status::ok) {
        const std::size_t last = std::min(error_begin + block, n) - 1;
        throw std::runtime_error("rows " + std::to_string(error_begin) + ".." + std::to_string(last) + ": " +
                                 kfm::status_string(error_status));
    }
}

}  // namespace kfm::offline
