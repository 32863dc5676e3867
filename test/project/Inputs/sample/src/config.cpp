#include "util.h"
#include <map>

std::map<std::string, std::string> parse(const std::string &line) {
  return {{trim(line), "1"}};
}
