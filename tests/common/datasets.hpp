// Loading the seed papers' data sets from ../shared/data for the reproduction tests (never copied into
// the tree). A loader returns false when the file is absent so that the caller can skip cleanly.
#pragma once
#include <string>

#include "offline/npy.hpp"

namespace kfm::test {

// X_train of a data set (letter, usps, ijcnn1) prepared as the quadrature paper's reference code does:
// LETTER rescaled (x+1)/2 to [0,1], any other data set divided by the maximum of its training split.
bool load_quffka_scaled(const std::string& name, offline::npy_array* out);

}  // namespace kfm::test
