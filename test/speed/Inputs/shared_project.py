#!/usr/bin/env python3
"""shared_project.py OUT

Writes the units of shared-preamble.test into OUT: each is the same body
after leading directives of its own (the table below), with include/model.h,
which keeps the graph only when KEEP_GRAPH is defined or __STRICT_ANSI__ is
not (GNU C++), include/keep.h, which defines KEEP_GRAPH, and src/d/model.h,
a header of the same name next to near.cpp that always keeps the graph.
"""
import os
import sys

MODEL = """// {what}
#pragma once
#include <torch/torch.h>
#include <vector>

namespace project {{

inline torch::Tensor sum_all(torch::nn::Linear &m,
                             const std::vector<torch::Tensor> &xs) {{
#if {condition}
  // Nothing guards the forwards below: each one's graph is kept.
#else
  torch::NoGradGuard no_grad;
#endif
  torch::Tensor {total} = torch::zeros({{}});
  for (const auto &x : xs)
    {total} += m(x).sum();
  return {total}.detach();
}}

}} // namespace project
"""

BODY = """
double {name}(torch::nn::Linear &m, const std::vector<torch::Tensor> &xs) {{
  torch::Tensor t = torch::zeros({{}});
  for (const auto &x : xs)
    ACC(t, m(x).sum());
  return project::sum_all(m, xs).item<double>() + t.item<double>();
}}
"""

INCLUDES = "#include <torch/torch.h>\n#include <vector>\n"
MODEL_H = '#include "model.h"\n'
ACC = "#define ACC(acc, value) acc += value\n"
LINE_TEST = "#if __LINE__ > 5\n#define KEEP_GRAPH 1\n#endif\n"

# Each unit: its folder, its name, and its text up to the body. The first
# units name the project's header first, so that their preambles hold it
# (a preamble ends before a project header only when a system header comes
# before it); the last ones name LibTorch first.
UNITS = [
    ("a", "one", "// one.cpp: the first unit.\n" + MODEL_H + INCLUDES + ACC),
    ("b", "two",
     "// two.cpp: the same directives as one.cpp, with comments of its own\n"
     "// and another layout, so that every offset differs.\n\n"
     '#include "model.h"       // the project\'s model\n\n'
     "#include <torch/torch.h>  // LibTorch\n#include <vector>\n/* Accumulates. */\n"
     "#define ACC(acc, value)   acc += value\n"),
    ("c", "define", "// define.cpp: a macro defined before the first include.\n"
     "#define KEEP_GRAPH 1\n" + MODEL_H + INCLUDES + ACC),
    ("a", "order1", "// order1.cpp: keep.h, then model.h.\n" +
     '#include "keep.h"\n#include "model.h"\n' + INCLUDES + ACC),
    ("b", "order2", "// order2.cpp: model.h, then keep.h.\n" +
     '#include "model.h"\n#include "keep.h"\n' + INCLUDES + ACC),
    ("a", "line_early", "// line_early.cpp: __LINE__ is small here.\n" +
     LINE_TEST + MODEL_H + INCLUDES + ACC),
    ("b", "line_late", "// line_late.cpp: the same directives as line_early.cpp,\n"
     "// further down, where __LINE__ is larger.\n" + "//\n" * 4 +
     LINE_TEST + MODEL_H + INCLUDES + ACC),
    ("a", "file_one", "// file_one.cpp: its preamble expands __FILE__.\n" +
     "#pragma message(__FILE__)\n" + MODEL_H + INCLUDES + ACC),
    ("b", "file_two", "// file_two.cpp: the same directives as file_one.cpp.\n" +
     "#pragma message(__FILE__)\n" + MODEL_H + INCLUDES + ACC),
    ("d", "near", "// near.cpp: the same directives as one.cpp, but a model.h lies\n"
     "// next to it.\n" + MODEL_H + INCLUDES + ACC),
    ("a", "flags_one", "// flags_one.cpp: ACC comes from the command line.\n" +
     MODEL_H + INCLUDES),
    ("b", "flags_two", "// flags_two.cpp: the same directives as flags_one.cpp.\n" +
     MODEL_H + INCLUDES),
    ("e", "system_first", "// system_first.cpp: LibTorch, then the project's header.\n" +
     INCLUDES + MODEL_H + ACC),
    ("f", "angled_project",
     "// angled_project.cpp: the project's header named <model.h>, found\n"
     "// through -I.\n" + INCLUDES + "#include <model.h>\n" + ACC),
    ("f", "conditional", "// conditional.cpp: the project's header in a conditional.\n" +
     INCLUDES + "#if 1\n" + MODEL_H + "#endif\n" + ACC),
    ("g", "library_by_i",
     "// library_by_i.cpp: <vector>, then LibTorch, named with -I outside the\n"
     "// project, then the project's header.\n"
     "#include <vector>\n#include <torch/torch.h>\n" + MODEL_H + ACC),
    ("e", "quoted_torch",
     '// quoted_torch.cpp: LibTorch named "torch/torch.h", found through -isystem.\n'
     '#include "torch/torch.h"\n#include <vector>\n' + MODEL_H + ACC),
]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


out = sys.argv[1]
write(os.path.join(out, "include", "model.h"), MODEL.format(
    what="The header every unit includes: it keeps the graph when told to.",
    total="total", condition="defined(KEEP_GRAPH) || !defined(__STRICT_ANSI__)"))
write(os.path.join(out, "include", "keep.h"),
      "// Included before model.h, it makes model.h keep the graph.\n"
      "#pragma once\n#define KEEP_GRAPH 1\n")
write(os.path.join(out, "src", "d", "model.h"), MODEL.format(
    what="A header of the same name next to near.cpp, found before include/model.h.",
    total="near_total", condition="1"))
for folder, name, directives in UNITS:
    write(os.path.join(out, "src", folder, name + ".cpp"), directives + BODY.format(name=name))
