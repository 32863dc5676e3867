// No LibTorch here: units that include only this are skipped.
#pragma once
#include <string>

inline std::string trim(const std::string &s) {
  auto b = s.find_first_not_of(' ');
  auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}
