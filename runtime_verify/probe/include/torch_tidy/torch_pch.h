// Precompiled once per LibTorch and flags by torch-tidy verify.
#include <torch/torch.h>
