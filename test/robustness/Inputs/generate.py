#!/usr/bin/env python3
"""generate.py KIND FILE: writes a large or deeply nested source file, with
one torch-graph-accumulation finding in its last function.

  long      100,000 lines: small functions, then the finding
  nested    a loop 500 blocks deep, the finding in the innermost block
  loops     500 nested for statements without braces, the finding inside
  chains    a method whose tensor members are updated from each other, element
            by element, in six rounds of loops (a thermostat's integrator),
            then the finding
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
elif kind == "chains":
    out += ["struct Chain {",
            "  torch::Tensor velocities_, forces_, masses_, positions_, target_;",
            "  int64_t length_ = 4;",
            "  void update(torch::Tensor &out, const torch::Tensor &kinetic, const torch::Tensor &dt) {",
            "    torch::Tensor scale = torch::ones({});",
            "    torch::Tensor akin = 2 * kinetic;"]
    for _ in range(6):
        out += ["    for (int64_t i = length_ - 2; i > 0; i--) {",
                "      velocities_[i] *= torch::exp(-velocities_[i + 1] * dt * 0.125);",
                "      forces_[i] = (masses_[i - 1] * torch::pow(velocities_[i - 1], 2) - target_) / masses_[i];",
                "      velocities_[i] += dt * 0.25 * forces_[i];",
                "    }",
                "    velocities_[0] *= torch::exp(-velocities_[1] * dt * 0.125);",
                "    forces_[0] = (akin - target_) / masses_[0];",
                "    velocities_[0] += dt * 0.25 * forces_[0];",
                "    scale *= torch::exp(-velocities_[0] * dt * 0.5);",
                "    akin *= torch::exp(-dt * velocities_[0]);",
                "    positions_ += 0.5 * dt * velocities_;"]
    out += ["    out *= scale;", "  }", "};", "",
            "void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {",
            "  torch::Tensor total = torch::zeros({});",
            "  for (const auto &x : xs) {",
            "    total += model(x).sum();",
            "  }",
            "}"]
with open(path, "w") as f:
    f.write("\n".join(out) + "\n")
