//===--- probe.cpp - the probe library ------------------------------------===//
#include "torch_tidy/probe_impl.h"
