"""Writes what a bundle's run script leaves for one variant, as a test wants it.

  fake_results.py VARIANT_DIR --probe NAME [--samples N] [--nodes A,STEP]
      [--cpu A,STEP] [--cuda A,STEP] [--device cuda:0] [--status LINE]
      [--build LINE] [--build-log TEXT] [--cut-last] [--damage-line K]
      [--skip-sample K] [--run K]

The trace (run-K.jsonl) holds N samples of probe NAME whose figures start at
A and grow by STEP per sample, in the probe's own format. --cut-last cuts
the last line short (as a crash does), --damage-line K replaces line K with
bytes that are no JSON, --skip-sample K leaves sample K out. --status and
--build write run-K.status and build.status ("exit 0", "signal 11", ...);
"none" writes no file.
"""
import argparse
import json
import os


def pair(text):
    start, step = text.split(",")
    return float(start), float(step)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--probe", required=True)
    p.add_argument("--samples", type=int, default=12)
    p.add_argument("--nodes", type=pair, default=(7, 0))
    p.add_argument("--cpu", type=pair, default=(50000, 0))
    p.add_argument("--cuda", type=pair, default=(0, 0))
    p.add_argument("--device", default="cpu")
    p.add_argument("--status", default="exit 0")
    p.add_argument("--build", default="exit 0")
    p.add_argument("--build-log", default="")
    p.add_argument("--cut-last", action="store_true")
    p.add_argument("--damage-line", type=int, default=0)
    p.add_argument("--skip-sample", type=int, default=-1)
    p.add_argument("--run", type=int, default=1)
    a = p.parse_args()

    os.makedirs(a.dir, exist_ok=True)
    if a.build != "none":
        with open(os.path.join(a.dir, "build.status"), "w") as f:
            f.write(a.build + "\n")
    with open(os.path.join(a.dir, "build.log"), "w") as f:
        f.write(a.build_log + "\n")
    if a.samples < 0:
        return
    lines = []
    for i in range(a.samples):
        if i == a.skip_sample:
            continue
        value = lambda p: int(p[0] + p[1] * i)
        lines.append(json.dumps({
            "probe": a.probe, "sample": i, "nodes": value(a.nodes),
            "cpu_bytes": value(a.cpu), "cpu_peak": value(a.cpu),
            "cuda_bytes": value(a.cuda), "cuda_peak": value(a.cuda),
            "devices": [a.device]}, separators=(",", ":")))
    text = "".join(line + "\n" for line in lines)
    if a.damage_line:
        kept = text.split("\n")
        kept[a.damage_line - 1] = "\x00\xff not json {"
        text = "\n".join(kept)
    if a.cut_last:
        text = text.rstrip("\n")
        text = text[: len(text) - 20]
    run = os.path.join(a.dir, "run-%d" % a.run)
    with open(run + ".jsonl", "w", encoding="latin-1") as f:
        f.write(text)
    with open(run + ".log", "w") as f:
        f.write("the program's output\n")
    with open(run + ".seconds", "w") as f:
        f.write("0.50\n")
    if a.status != "none":
        with open(run + ".status", "w") as f:
            f.write(a.status + "\n")


if __name__ == "__main__":
    main()
