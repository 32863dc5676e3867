#!/bin/sh
# Stands in for the project's training program: writes the samples the probe
# would, 7 autograd nodes more per iteration unless the source detaches.
# $1: the source file the build command would have compiled.
src=$1
grep -q 'torch_tidy_probe::sample("torch-graph-accumulation@10", total)' "$src" || {
  echo "fake_run: $src is not instrumented" >&2; exit 3; }
per=7
grep -q 'total += loss.detach();' "$src" && per=0
i=0
while [ "$i" -lt "${TORCH_TIDY_PROBE_STOP_AFTER:-10}" ]; do
  echo "{\"probe\":\"torch-graph-accumulation@10\",\"sample\":$i,\"nodes\":$((i * per)),\"cpu_bytes\":64,\"cpu_peak\":64,\"cuda_bytes\":0,\"cuda_peak\":0,\"devices\":[\"cpu\"]}" >> "$TORCH_TIDY_PROBE_TRACE"
  i=$((i + 1))
done
