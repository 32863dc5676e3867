#include "util.h"
#include <iostream>

int run_cli(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    std::cout << trim(argv[i]) << "\n";
  return 0;
}
