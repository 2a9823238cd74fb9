// CRC-32C known-answer vectors and the streaming property the header CRC relies on.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "format/crc32c.hpp"

using kfm::detail::crc32c;

TEST_CASE("crc32c matches the Castagnoli check values") {
    CHECK(crc32c("123456789", 9) == 0xE3069283u);
    CHECK(crc32c("", 0) == 0u);
    // RFC 3720 (iSCSI) B.4 vectors: 32 bytes of zeros, of 0xff, and an ascending sequence.
    std::vector<unsigned char> zeros(32, 0), ones(32, 0xff), ascending(32);
    for (int i = 0; i < 32; ++i) ascending[i] = static_cast<unsigned char>(i);
    CHECK(crc32c(zeros.data(), zeros.size()) == 0x8A9136AAu);
    CHECK(crc32c(ones.data(), ones.size()) == 0x62A8AB43u);
    CHECK(crc32c(ascending.data(), ascending.size()) == 0x46DD794Eu);
}

TEST_CASE("crc32c can be continued across pieces") {
    const char* text = "The quick brown fox jumps over the lazy dog";
    const std::size_t n = std::strlen(text);
    for (std::size_t split = 0; split <= n; split += 7)
        CHECK(crc32c(text + split, n - split, crc32c(text, split)) == crc32c(text, n));
}
