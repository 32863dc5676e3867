// Mock of <torch/all.h>.
#pragma once

#include <torch/autograd.h>
#include <torch/cuda.h>
#include <torch/enum.h>
#include <torch/jit.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/serialize.h>
#include <torch/types.h>
#include <torch/utils.h>
