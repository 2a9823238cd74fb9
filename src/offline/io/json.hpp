// Minimal JSON text for the reports (flat objects of strings, numbers and arrays): the map descriptions
// here and the kfm tool's --json output.
#pragma once
#include <string>
#include <vector>

namespace kfm::offline {

std::string json_string(const std::string& s);
std::string json_number(double v);  // shortest round-trip form; null for NaN/Inf
std::string json_array(const std::vector<double>& v);

}  // namespace kfm::offline
