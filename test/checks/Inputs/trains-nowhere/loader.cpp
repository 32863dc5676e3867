// Another unit of the serving project: it loads the model and trains
// nothing.
#include "ros_segmenter.h"

Segmenter::Segmenter(const std::string &path) : module_(torch::jit::load(path)) {}

// An image library's strided view (as OpenCV's PtrStepSz, included with -I):
// in a template, `d.step` reads the row stride of a dependent type. It is
// no call, so no optimizer step either.
template <typename T> struct StridedView {
  T *data = nullptr;
  size_t step = 0;
  StridedView() = default;
  template <typename U>
  explicit StridedView(const StridedView<U> &d)
      : data((T *)d.data), step(d.step) {}
};
