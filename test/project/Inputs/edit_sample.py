#!/usr/bin/env python3
"""edit_sample.py DIR: moves every finding of the sample project down by a
few lines, edits an unrelated line, and adds one new leak to train.cpp."""
import os
import sys

d = sys.argv[1]


def edit(rel, fn):
    p = os.path.join(d, rel)
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(fn(text))


edit("include/model.h", lambda t: "// Model helpers.\n// (moved down)\n\n" + t)
edit("src/eval.cpp", lambda t: t.replace('#include "model.h"\n',
                                         '#include "model.h"\n\nstatic int unused_counter = 0;\n'))
edit("src/train.cpp", lambda t: "// Training.\n\n" + t.replace("const torch::Tensor &y) {", "const torch::Tensor &y) {  // edited") + """
void train_more(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor running = torch::zeros({});
  for (int i = 0; i < 10; ++i)
    running += model(x).sum();
}
""")
