#!/usr/bin/env python3
"""generate.py KIND FILE: writes a large or deeply nested source file, with
one torch-graph-accumulation finding in its last function.

  long      100,000 lines: small functions, then the finding
  nested    a loop 500 blocks deep, the finding in the innermost block
  loops     500 nested for statements without braces, the finding inside
"""
import sys

kind, path = sys.argv[1], sys.argv[2]
out = ["#include <torch/torch.h>", "#include <vector>", ""]
if kind == "long":
    i = 0
    while len(out) < 100000 - 12:
        out += ["static int f%d(int x) {" % i, "  return x + %d;" % i, "}"]
        i += 1
    out += ["void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {",
            "  torch::Tensor total = torch::zeros({});",
            "  for (const auto &x : xs) {",
            "    total += model(x).sum();",
            "  }",
            "}"]
elif kind == "nested":
    out += ["void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {",
            "  torch::Tensor total = torch::zeros({});",
            "  for (const auto &x : xs) {"]
    out += ["{"] * 500
    out += ["    total += model(x).sum();"]
    out += ["}"] * 500
    out += ["  }", "}"]
elif kind == "loops":
    out += ["void train(torch::nn::Linear &model, const torch::Tensor &x) {",
            "  torch::Tensor total = torch::zeros({});"]
    out += ["  for (int i%d = 0; i%d < 2; ++i%d)" % (d, d, d) for d in range(500)]
    out += ["    total += model(x).sum();", "}"]
with open(path, "w") as f:
    f.write("\n".join(out) + "\n")
