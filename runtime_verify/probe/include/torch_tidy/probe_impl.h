//===--- probe_impl.h - the probe's implementation ------------------------===//
//
// Compiled once: by src/probe.cpp in the probe library, or in one translation
// unit that defines TORCH_TIDY_PROBE_IMPLEMENTATION before including probe.h.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_PROBE_IMPL_H
#define TORCH_TIDY_PROBE_IMPL_H

#include "torch_tidy/probe.h"

#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <torch/csrc/autograd/function.h>
#include <torch/version.h>

#if defined(TORCH_TIDY_PROBE_CUDA) && TORCH_TIDY_PROBE_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

// LibTorch 2.3 made Allocator::allocate non-const and added copy_data.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define TORCH_TIDY_PROBE_ALLOCATE_CONST
#define TORCH_TIDY_PROBE_HAS_COPY_DATA 1
#else
#define TORCH_TIDY_PROBE_ALLOCATE_CONST const
#define TORCH_TIDY_PROBE_HAS_COPY_DATA 0
#endif

namespace torch_tidy::probe {
namespace impl {

// Live CPU bytes. The maps are allocated once and never destroyed: tensors
// freed during static destruction still pass through the deleter.
struct CpuCounter {
  std::mutex Lock;
  std::unordered_map<void *, std::size_t> Sizes;
  std::size_t Live = 0;
  std::size_t Peak = 0;
  c10::Allocator *Base = nullptr;
  c10::DeleterFnPtr BaseDeleter = nullptr;
};

inline CpuCounter &cpuCounter() {
  static CpuCounter *Counter = new CpuCounter();
  return *Counter;
}

inline void countingDelete(void *Ptr) {
  CpuCounter &C = cpuCounter();
  {
    std::lock_guard<std::mutex> Guard(C.Lock);
    auto It = C.Sizes.find(Ptr);
    if (It != C.Sizes.end()) {
      C.Live -= It->second;
      C.Sizes.erase(It);
    }
  }
  C.BaseDeleter(Ptr);
}

// Allocates through the allocator it replaces; every DataPtr's context is
// its data, so raw_allocate/raw_deleter keep working.
class CountingCpuAllocator final : public c10::Allocator {
public:
  c10::DataPtr allocate(std::size_t N) TORCH_TIDY_PROBE_ALLOCATE_CONST override {
    CpuCounter &C = cpuCounter();
    void *Ptr = C.Base->raw_allocate(N);
    {
      std::lock_guard<std::mutex> Guard(C.Lock);
      C.Sizes[Ptr] = N;
      C.Live += N;
      if (C.Live > C.Peak)
        C.Peak = C.Live;
    }
    return {Ptr, Ptr, &countingDelete, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &countingDelete; }
#if TORCH_TIDY_PROBE_HAS_COPY_DATA
  void copy_data(void *Dest, const void *Src, std::size_t Count) const override {
    default_copy_data(Dest, Src, Count);
  }
#endif
};

struct TraceState {
  std::mutex Lock;
  std::FILE *Out = nullptr;
  bool Opened = false;
  long StopAfter = 0;
  std::map<std::string, long> Samples;
};

inline TraceState &traceState() {
  static TraceState *State = new TraceState();
  return *State;
}

inline void openTrace(TraceState &S) {
  if (S.Opened)
    return;
  S.Opened = true;
  const char *Path = std::getenv("TORCH_TIDY_PROBE_TRACE");
  if (Path && *Path) {
    S.Out = std::fopen(Path, "a");
    if (!S.Out)
      std::fprintf(stderr, "torch-tidy probe: cannot open trace '%s'; writing to standard error\n",
                   Path);
  }
  if (!S.Out)
    S.Out = stderr;
  if (const char *Stop = std::getenv("TORCH_TIDY_PROBE_STOP_AFTER"))
    S.StopAfter = std::strtol(Stop, nullptr, 10);
}

inline void writeJsonString(std::FILE *Out, const std::string &Text) {
  std::fputc('"', Out);
  for (char Ch : Text) {
    if (Ch == '"' || Ch == '\\')
      std::fprintf(Out, "\\%c", Ch);
    else if (static_cast<unsigned char>(Ch) < 0x20)
      std::fprintf(Out, "\\u%04x", Ch);
    else
      std::fputc(Ch, Out);
  }
  std::fputc('"', Out);
}

struct CudaBytes {
  long long Current = 0;
  long long Peak = 0;
};

inline CudaBytes cudaBytes(const std::set<int> &Devices) {
  CudaBytes Result;
#if defined(TORCH_TIDY_PROBE_CUDA) && TORCH_TIDY_PROBE_CUDA
  for (int Index : Devices) {
    auto Stats = c10::cuda::CUDACachingAllocator::getDeviceStats(
        static_cast<c10::DeviceIndex>(Index));
    Result.Current += Stats.allocated_bytes[0].current;
    Result.Peak += Stats.allocated_bytes[0].peak;
  }
#else
  (void)Devices;
#endif
  return Result;
}

struct Installer {
  Installer() { installCpuCounter(); }
};

} // namespace impl

void installCpuCounter() {
  static std::atomic<bool> Done{false};
  if (Done.exchange(true))
    return;
  impl::CpuCounter &C = impl::cpuCounter();
  C.Base = c10::GetCPUAllocator();
  C.BaseDeleter = C.Base->raw_deleter();
  if (!C.BaseDeleter) // cannot wrap an allocator without a raw deleter
    return;
  static impl::CountingCpuAllocator *Counting = new impl::CountingCpuAllocator();
  c10::SetCPUAllocator(Counting, /*priority=*/100);
}

std::size_t cpuLiveBytes() {
  impl::CpuCounter &C = impl::cpuCounter();
  std::lock_guard<std::mutex> Guard(C.Lock);
  return C.Live;
}

std::size_t cpuPeakBytes() {
  impl::CpuCounter &C = impl::cpuCounter();
  std::lock_guard<std::mutex> Guard(C.Lock);
  return C.Peak;
}

void resetCpuPeak() {
  impl::CpuCounter &C = impl::cpuCounter();
  std::lock_guard<std::mutex> Guard(C.Lock);
  C.Peak = C.Live;
}

std::size_t countGraphNodes(const TensorList &Tensors) {
  std::unordered_set<const torch::autograd::Node *> Seen;
  std::vector<torch::autograd::Node *> Work;
  for (const at::Tensor &T : Tensors) {
    if (!T.defined() || !T.requires_grad())
      continue;
    torch::autograd::Node *Fn = T.grad_fn().get();
    if (Fn && Seen.insert(Fn).second)
      Work.push_back(Fn);
  }
  while (!Work.empty()) {
    torch::autograd::Node *Fn = Work.back();
    Work.pop_back();
    for (const torch::autograd::Edge &E : Fn->next_edges()) {
      torch::autograd::Node *Next = E.function.get();
      if (Next && Seen.insert(Next).second)
        Work.push_back(Next);
    }
  }
  return Seen.size();
}

namespace detail {
void collectIValue(TensorList &Out, const c10::IValue &V) {
  if (V.isTensor()) {
    Out.push_back(V.toTensor());
  } else if (V.isTensorList()) {
    for (const at::Tensor &T : V.toTensorVector())
      Out.push_back(T);
  } else if (V.isTuple()) {
    for (const c10::IValue &E : V.toTupleRef().elements())
      collectIValue(Out, E);
  } else if (V.isList()) {
    for (const c10::IValue &E : V.toListRef())
      collectIValue(Out, E);
  } else if (V.isGenericDict()) {
    for (const auto &E : V.toGenericDict())
      collectIValue(Out, E.value());
  }
}
} // namespace detail

void record(const char *Name, const TensorList &Tensors) {
  installCpuCounter();
  std::size_t Nodes = countGraphNodes(Tensors);
  std::set<std::string> Devices;
  std::set<int> CudaDevices;
  for (const at::Tensor &T : Tensors) {
    Devices.insert(T.device().str());
    if (T.device().is_cuda())
      CudaDevices.insert(T.device().index() < 0 ? 0 : T.device().index());
  }
  impl::CudaBytes Cuda = impl::cudaBytes(CudaDevices);
  std::size_t Live = cpuLiveBytes();
  std::size_t Peak = cpuPeakBytes();

  impl::TraceState &S = impl::traceState();
  std::lock_guard<std::mutex> Guard(S.Lock);
  impl::openTrace(S);
  long Index = S.Samples[Name]++;
  std::FILE *Out = S.Out;
  std::fputs("{\"probe\":", Out);
  impl::writeJsonString(Out, Name);
  std::fprintf(Out,
               ",\"sample\":%ld,\"nodes\":%zu,\"cpu_bytes\":%zu,\"cpu_peak\":%zu,"
               "\"cuda_bytes\":%lld,\"cuda_peak\":%lld,\"devices\":[",
               Index, Nodes, Live, Peak, Cuda.Current, Cuda.Peak);
  bool First = true;
  for (const std::string &D : Devices) {
    if (!First)
      std::fputc(',', Out);
    First = false;
    impl::writeJsonString(Out, D);
  }
  std::fputs("]}\n", Out);
  std::fflush(Out);
  if (S.StopAfter > 0 && Index + 1 >= S.StopAfter) {
    std::fprintf(stderr, "torch-tidy probe: '%s' took %ld samples; stopping the program\n", Name,
                 Index + 1);
    std::fflush(stderr);
    std::_Exit(0);
  }
}

// Installs the counting allocator before main() runs.
static impl::Installer TorchTidyProbeInstaller;

} // namespace torch_tidy::probe

#endif // TORCH_TIDY_PROBE_IMPL_H
