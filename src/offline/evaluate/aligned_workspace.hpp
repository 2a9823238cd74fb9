// A workspace for the runtime's transform and predict calls, 64-byte aligned as the SIMD kernels prefer.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

namespace kfm::offline {

class aligned_workspace {
public:
    explicit aligned_workspace(std::size_t bytes) : storage_(bytes + 64), size_(bytes) {
        void* start = storage_.data();
        std::size_t space = storage_.size();
        data_ = std::align(64, bytes, start, space);
    }
    void* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    std::vector<unsigned char> storage_;
    std::size_t size_ = 0;
    void* data_ = nullptr;
};

}  // namespace kfm::offline
