// Another unit of the serving project: it loads the model and trains
// nothing.
#include "ros_segmenter.h"

Segmenter::Segmenter(const std::string &path) : module_(torch::jit::load(path)) {}
