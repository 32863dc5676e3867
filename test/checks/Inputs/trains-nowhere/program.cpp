// The program's entry: it builds a stage and trains nothing; the stage is
// run by a plugin host out of view.
#include "stage.h"

void host(Stage &stage);

int main() {
  FeatureStage stage;
  host(stage);
  return 0;
}
