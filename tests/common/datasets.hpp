// Where the seed papers' data sets are (never copied into the tree) and loaders for the reproduction
// tests. The directory is the environment variable KFM_DATA_DIR when set, else the build's default (the
// `shared/data` directory beside the repository). Data-dependent test cases are decorated with
// `* doctest::skip(kfm::test::missing_data({"letter"}))` so that doctest counts them as skipped.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>

#include "kfm/offline/npy.hpp"

namespace kfm::test {

// KFM_DATA_DIR, or the compiled-in default when it is unset or empty.
std::string data_dir();

// data_dir()/<name>/<file>.
std::string dataset_file(const std::string& name, const std::string& file = "X_train.npy");

// True (skip the case) when none of the named data sets has its X_train.npy. Counts the decision, so that
// a suite's main can tell whether every data-dependent case was skipped.
bool missing_data(std::initializer_list<const char*> names);
std::size_t cases_skipped_for_data();
std::size_t cases_with_data();

// X_train of a data set (letter, usps, ijcnn1) prepared as the quadrature paper's reference code does:
// LETTER rescaled (x+1)/2 to [0,1], any other data set divided by the maximum of its training split.
// False when the file is absent.
bool load_quffka_scaled(const std::string& name, offline::npy_array* out);

}  // namespace kfm::test
