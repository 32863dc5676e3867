// Includes the loop's header but does not run it: first in the database.
#include "loop.h"

int batch_size() { return 8; }
