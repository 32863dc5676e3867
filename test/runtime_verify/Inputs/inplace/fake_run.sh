#!/bin/sh
# Stands in for the project's training program: writes the samples the probe
# would. As written: 7 autograd nodes more per iteration, with one spike
# (+500 nodes at sample 4) that a robust slope must ignore. Detached: no
# growth, but noisy (nodes 0/1 and bytes 64/4064 alternating).
# $1: the source file the build command would have compiled.
src=$1
grep -q 'torch_tidy::probe::sample("torch-graph-accumulation@10", total)' "$src" || {
  echo "fake_run: $src is not instrumented" >&2; exit 3; }
fixed=0
grep -q 'total += loss.detach();' "$src" && fixed=1
i=0
while [ "$i" -lt "${TORCH_TIDY_PROBE_STOP_AFTER:-10}" ]; do
  if [ "$fixed" = 1 ]; then
    nodes=$((i % 2)); bytes=$((64 + 4000 * (i % 2)))
  else
    nodes=$((i * 7)); bytes=64
    [ "$i" = 4 ] && nodes=$((nodes + 500))
  fi
  echo "{\"probe\":\"torch-graph-accumulation@10\",\"sample\":$i,\"nodes\":$nodes,\"cpu_bytes\":$bytes,\"cpu_peak\":$bytes,\"cuda_bytes\":0,\"cuda_peak\":0,\"devices\":[\"cpu\"]}" >> "$TORCH_TIDY_PROBE_TRACE"
  i=$((i + 1))
done
