// Mock of <c10/util/intrusive_ptr.h> (backed by std::shared_ptr; the real one
// is an intrusive refcount).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace c10 {

template <class TTarget>
class intrusive_ptr final {
 public:
  using element_type = TTarget;

  intrusive_ptr() noexcept = default;
  intrusive_ptr(std::nullptr_t) noexcept {}
  ~intrusive_ptr() = default;

  TTarget* get() const noexcept { return target_.get(); }
  TTarget& operator*() const noexcept { return *target_; }
  TTarget* operator->() const noexcept { return target_.get(); }
  explicit operator bool() const noexcept { return target_ != nullptr; }
  void reset() noexcept { target_.reset(); }
  size_t use_count() const noexcept { return target_.use_count(); }
  bool defined() const noexcept { return target_ != nullptr; }

  template <class... Args>
  static intrusive_ptr make(Args&&... args) {
    intrusive_ptr r;
    r.target_ = std::make_shared<TTarget>(std::forward<Args>(args)...);
    return r;
  }

 private:
  std::shared_ptr<TTarget> target_;
};

template <class TTarget, class... Args>
inline intrusive_ptr<TTarget> make_intrusive(Args&&... args) {
  return intrusive_ptr<TTarget>::make(std::forward<Args>(args)...);
}

} // namespace c10
