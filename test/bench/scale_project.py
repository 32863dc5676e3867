#!/usr/bin/env python3
"""Generates a LibTorch project of N translation units in M folders.

  scale_project.py OUT --units N [--folders M] [--torch-include DIR[:DIR...]]...

Each unit starts with a comment of its own, includes <torch/torch.h> and a
few project headers (include/project/), and has a training loop, an
evaluation and a data pass of its own; about a third of the units keep a
history-carrying tensor across iterations, in one of several ways. Units in
even-numbered folders also include "project/data.h", so that editing that
header re-runs those units and no other. OUT/build/compile_commands.json
compiles every unit from OUT/build with -I OUT/include and the torch include
directories as system directories.

Other scripts import it: make(out, units, folders, torch_includes) returns
the list of units, edit_unit(path, n) and edit_header(out, n) change a unit's
own code and the shared header, units_including_data(units) says which units
include that header.
"""
import argparse
import json
import os

MODEL_H = """// The model every unit trains: a small MLP.
#pragma once
#include <torch/torch.h>

namespace project {

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, out))) {}

  torch::Tensor forward(const torch::Tensor &x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }

  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

} // namespace project
"""

METRICS_H = """// Metrics that cut the graph: each returns a plain number.
#pragma once
#include <torch/torch.h>

namespace project {

inline double accuracy(const torch::Tensor &logits, const torch::Tensor &labels) {
  auto correct = logits.argmax(1).eq(labels).sum();
  return correct.item<double>() / static_cast<double>(labels.size(0));
}

inline double mean_of(const torch::Tensor &t) { return t.mean().item<double>(); }

} // namespace project
"""

DATA_H = """// Batches for the units that read data from disk.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace project {

inline std::vector<torch::Tensor> batches(int64_t count, int64_t size) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back(torch::randn({size, 16}));
  return out;
}

} // namespace project
"""

HEADER = """// {folder}/{name}.cpp: {what}.
//
// Generated for the scale benchmark: unit {index} of the project, with a
// training loop, an evaluation and a data pass of its own.{extra}
#include <torch/torch.h>
#include <vector>

#include "project/model.h"
#include "project/metrics.h"
"""

BODY = """
namespace {ns} {{

// The training loop: a step per batch.
double train(project::Net &net, torch::optim::SGD &opt,
             const std::vector<torch::Tensor> &xs, const torch::Tensor &y) {{
  torch::Tensor running = torch::zeros({{}});
  std::vector<torch::Tensor> kept;
  double total = 0;
  int64_t seen = 0;
  for (const auto &x : xs) {{
    auto prediction = net->forward(x);
    opt.zero_grad();
    auto loss = torch::mse_loss(prediction, y);
    loss.backward();
    opt.step();
    ++seen;
{accumulate}
  }}
  return total / static_cast<double>(seen) + running.item<double>() + {index};
}}

// Evaluation over held-out batches.
double evaluate(project::Net &net, const std::vector<torch::Tensor> &xs,
                const torch::Tensor &labels) {{
  net->eval();
{guard}  double sum = 0;
  for (const auto &x : xs)
    sum += project::accuracy(net->forward(x), labels);
  return sum / static_cast<double>(xs.size());
}}

// A pass over the data that only reads it.
double scan(const std::vector<torch::Tensor> &xs) {{
  double m = 0;
  for (const auto &x : xs)
    m += project::mean_of(x);
  return m + {index};
}}

}} // namespace {ns}

double run_{ns}(int64_t batches) {{
  project::Net net(16, 32, 1);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01));
  std::vector<torch::Tensor> xs{data};
  auto y = torch::zeros({{8, 1}});
  return {ns}::train(net, opt, xs, y) + {ns}::evaluate(net, xs, y) +
         {ns}::scan(xs);
}}
"""

# How a unit's training loop keeps what it computes: clean ones take plain
# numbers or detached tensors, leaky ones keep the graph.
ACCUMULATE = [
    "    total += loss.item<double>();\n    kept.push_back(prediction.detach());",
    "    running += loss; // keeps every step's graph",
    "    total += loss.item<double>();\n    kept.push_back(prediction); // keeps every step's graph",
    "    running += loss.detach();",
]

WHAT = ["trains the regression head", "fine-tunes the encoder",
        "trains the baseline", "runs the ablation", "trains with a warm-up"]


def folder_of(index, folders):
    return "part%d" % (index % folders)


def includes_data(index, folders):
    return (index % folders) % 2 == 0


def make_unit(path, index, folders):
    folder = folder_of(index, folders)
    name = os.path.splitext(os.path.basename(path))[0]
    extra = "\n// It reads its batches with project::batches()." if includes_data(index, folders) else ""
    text = HEADER.format(folder=folder, name=name, what=WHAT[index % len(WHAT)],
                         index=index, extra=extra)
    if includes_data(index, folders):
        text += '#include "project/data.h"\n'
    data = " = project::batches(batches, 8)" if includes_data(index, folders) else \
        "(static_cast<size_t>(batches), torch::randn({8, 16}))"
    guard = "" if index % 7 == 3 else "  torch::NoGradGuard no_grad;\n"
    text += BODY.format(ns="unit%d" % index, index=index, data=data, guard=guard,
                        accumulate=ACCUMULATE[index % len(ACCUMULATE)])
    with open(path, "w") as f:
        f.write(text)


def make(out, units, folders, torch_includes):
    """Writes the project; returns its units (absolute paths), in order."""
    inc = os.path.join(out, "include", "project")
    os.makedirs(inc, exist_ok=True)
    for name, text in (("model.h", MODEL_H), ("metrics.h", METRICS_H), ("data.h", DATA_H)):
        with open(os.path.join(inc, name), "w") as f:
            f.write(text)
    build = os.path.join(out, "build")
    os.makedirs(build, exist_ok=True)
    paths, entries = [], []
    for i in range(units):
        d = os.path.join(out, "src", folder_of(i, folders))
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, "unit%d.cpp" % i)
        make_unit(p, i, folders)
        paths.append(p)
        args = ["clang++", "-std=c++17", "-I" + os.path.join(out, "include")]
        for t in torch_includes:
            args += ["-isystem", t]
        obj = "unit%d.o" % i
        entries.append({"directory": build, "file": p,
                        "arguments": args + ["-c", p, "-o", obj]})
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return paths


def edit_unit(path, n):
    """Changes a unit's own code (at its end: its findings stay put)."""
    with open(path, "a") as f:
        f.write("\nint edited_%d() { return %d; }\n" % (n, n))


def edit_header(out, n):
    """Changes project/data.h, which the units of even folders include."""
    with open(os.path.join(out, "include", "project", "data.h"), "a") as f:
        f.write("\nnamespace project {\ninline int revision_%d() { return %d; }\n}\n" % (n, n))


def units_including_data(units, folders):
    return [u for i, u in enumerate(units) if includes_data(i, folders)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--units", type=int, required=True)
    ap.add_argument("--folders", type=int, default=4)
    ap.add_argument("--torch-include", action="append", default=[],
                    help="a system include directory (or several, separated by ':')")
    a = ap.parse_args()
    dirs = [os.path.abspath(d) for t in a.torch_include for d in t.split(os.pathsep) if d]
    make(os.path.abspath(a.out), a.units, a.folders, dirs)


if __name__ == "__main__":
    main()
