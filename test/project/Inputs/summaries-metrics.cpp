#include "metrics.h"

void RunningMetrics::add_loss(const torch::Tensor &loss) { losses_.push_back(loss); }
void RunningMetrics::add_output(const torch::Tensor &output) { outputs_.push_back(output); }
void RunningMetrics::add_number(const torch::Tensor &value) { numbers_.push_back(value); }
void RunningMetrics::add_clean(const torch::Tensor &loss) { clean_.push_back(loss); }
