#!/bin/sh
# Runs a torch-tidy verify bundle: builds every instrumented program against
# the LibTorch that CMake finds on this machine, runs each on the requested
# device with the probe's trace, and leaves the figures in results/ for
#   torch-tidy verify --judge BUNDLE
# Needs a POSIX shell, CMake, a C++ compiler and LibTorch (with CUDA for
# --device cuda); not LLVM, not torch-tidy.
#
# results/ (the judge reads it):
#   bundle-id, device, gpus                what ran, and where
#   configure.log, configure.status        the CMake configure step
#   <finding>/<variant>/build.log|.status  the program's build
#   <finding>/<variant>/run-K.jsonl        the probe's trace of run K
#   <finding>/<variant>/run-K.log|.status|.seconds
# A .status file holds one line: "exit N", "signal N" or "timeout S".
set -u

bundle=$(cd "$(dirname "$0")" && pwd)
device=auto
torch=
build=
jobs=
prebuilt=0

usage() {
  cat <<'EOF'
usage: run [--device cuda|cpu|auto] [--torch DIR] [--build-dir DIR] [--jobs N]
           [--prebuilt] [-- CMAKE_ARGS...]

  --device cuda   require a GPU (nvidia-smi must list one)
  --device cpu    hide the GPUs from the programs (CUDA_VISIBLE_DEVICES=)
  --device auto   cuda when nvidia-smi lists a GPU, else cpu (default)
  --torch DIR     the LibTorch to build against: its install prefix, the
                  folder of TorchConfig.cmake, or a CMAKE_PREFIX_PATH entry
                  (default: $Torch_DIR or $CMAKE_PREFIX_PATH when set, else
                  the PyPI wheel's when python3 can import torch, else what
                  find_package(Torch) finds)
  --build-dir DIR where to build (default: BUNDLE/build)
  --jobs N        parallel compiles (default: the number of CPUs)
  --prebuilt      do not build: the programs are already in the build folder
                  and their build.status files in results/
Arguments after -- go to CMake's configure step.
Exit status: 0 every program was built and ran, 1 some did not (the judge
says which and why), 2 the bundle could not be run at all.
EOF
}

fail() {
  echo "run: error: $*" >&2
  exit 2
}

value_of() { # value_of OPTION ARGC: the option's value must follow it
  [ "$2" -ge 2 ] || fail "missing value after $1"
}

while [ $# -gt 0 ]; do
  case $1 in
  --device) value_of "$1" $#; device=$2; shift 2 ;;
  --device=*) device=${1#*=}; shift ;;
  --torch) value_of "$1" $#; torch=$2; shift 2 ;;
  --torch=*) torch=${1#*=}; shift ;;
  --build-dir) value_of "$1" $#; build=$2; shift 2 ;;
  --build-dir=*) build=${1#*=}; shift ;;
  --jobs|-j) value_of "$1" $#; jobs=$2; shift 2 ;;
  --jobs=*) jobs=${1#*=}; shift ;;
  --prebuilt) prebuilt=1; shift ;;
  -h|--help) usage; exit 0 ;;
  --) shift; break ;;
  *) echo "run: error: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

is_number() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  return 0
}

[ -f "$bundle/manifest.json" ] && [ -f "$bundle/variants" ] && [ -f "$bundle/settings" ] ||
  fail "$bundle is not a complete torch-tidy verify bundle"

# settings: key=value lines written by torch-tidy verify --bundle.
warmup=5 iterations=30 timeout=300 repeat=1
while IFS='=' read -r key value; do
  case $key in
  warmup | iterations | timeout | repeat)
    is_number "$value" || fail "bad value '$value' for $key in $bundle/settings" ;;
  esac
  case $key in
  warmup) warmup=$value ;;
  iterations) iterations=$value ;;
  timeout) timeout=$value ;;
  repeat) repeat=$value ;;
  esac
done <"$bundle/settings"
stop_after=$((warmup + iterations))

[ -n "$build" ] || build=$bundle/build
if [ -z "$jobs" ]; then
  jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
fi
is_number "$jobs" && [ "$jobs" -gt 0 ] || fail "bad value '$jobs' for --jobs"

has_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU
}
case $device in
cpu) CUDA_VISIBLE_DEVICES=; export CUDA_VISIBLE_DEVICES ;;
cuda) has_gpu || fail "--device cuda: no CUDA device here (nvidia-smi lists none)" ;;
auto) if has_gpu; then device=cuda; else device=cpu; fi ;;
*) fail "bad value '$device' for --device (cuda, cpu or auto)" ;;
esac
# Programs that choose their device themselves may read what was asked.
TORCH_TIDY_DEVICE=$device
export TORCH_TIDY_DEVICE

results=$bundle/results
if [ "$prebuilt" = 1 ]; then
  rm -f "$results"/*/*/run-* "$results"/device "$results"/gpus
else
  rm -rf "$results"
fi
mkdir -p "$results" || fail "cannot create $results"
cp "$bundle/bundle-id" "$results/bundle-id"
echo "$device" >"$results/device"
if [ "$device" = cuda ]; then
  # index, name, total memory in MiB: the judge's memory limit.
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader,nounits \
    >"$results/gpus" 2>/dev/null || rm -f "$results/gpus"
fi

now() { date +%s.%N 2>/dev/null || date +%s; }

# limited LIMIT COMMAND...: COMMAND, killed after LIMIT seconds.
limited() {
  if command -v timeout >/dev/null 2>&1; then
    timeout -k 10 "$@"
  else
    shift
    "$@"
  fi
}

# record PREFIX LIMIT COMMAND...: runs COMMAND (at most LIMIT seconds) with
# its output in PREFIX.log, then writes how it ended to PREFIX.status and
# its wall time to PREFIX.seconds.
record() {
  prefix=$1 limit=$2
  shift 2
  start=$(now)
  limited "$limit" "$@" >"$prefix.log" 2>&1 </dev/null
  code=$?
  end=$(now)
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  if [ "$code" -eq 124 ] ||
    { [ "$code" -eq 137 ] && awk -v s="$seconds" -v l="$limit" 'BEGIN { exit !(s >= l) }'; }; then
    status="timeout $limit"
  elif [ "$code" -gt 128 ]; then
    status="signal $((code - 128))"
  else
    status="exit $code"
  fi
  echo "$seconds" >"$prefix.seconds"
  echo "$status" >"$prefix.status.tmp" && mv "$prefix.status.tmp" "$prefix.status"
  [ "$code" -eq 0 ]
}

variants=$(cat "$bundle/variants")
count=$(printf '%s\n' "$variants" | grep -c .)

if [ "$prebuilt" = 0 ]; then
  set -- -S "$bundle" -B "$build" "$@"
  if [ -n "$torch" ]; then
    [ -d "$torch" ] || fail "--torch $torch: no such folder"
    # The folder of TorchConfig.cmake: its prefix is three levels up.
    [ -f "$torch/TorchConfig.cmake" ] && torch=$(cd "$torch/../../.." && pwd)
    set -- "$@" "-DCMAKE_PREFIX_PATH=$torch"
  elif [ -z "${Torch_DIR:-}" ] && [ -z "${CMAKE_PREFIX_PATH:-}" ] &&
    prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null); then
    set -- "$@" "-DCMAKE_PREFIX_PATH=$prefix"
  fi
  # Ninja where it is installed and nothing else was asked for: it keeps
  # every CPU busy across the programs (make waits on each directory).
  case " $* " in
  *" -G"*) ;;
  *)
    if [ -z "${CMAKE_GENERATOR:-}" ] && [ ! -f "$build/CMakeCache.txt" ] &&
      command -v ninja >/dev/null 2>&1; then
      set -- "$@" -G Ninja
    fi ;;
  esac
  echo "run: configuring the build in $build"
  if ! record "$results/configure" "$timeout" cmake "$@"; then
    grep -m 3 -e 'CMake Error' -e 'error:' "$results/configure.log" >&2
    fail "configuring the build failed (log: $results/configure.log)"
  fi
  echo "run: building $count programs"
  # Everything at once first; then each program alone, so that each has its
  # own status and log (a program already built is not rebuilt).
  limited $((timeout * (count + 1))) cmake --build "$build" --parallel "$jobs" \
    >"$results/build-all.log" 2>&1 </dev/null
fi

failed=0
while read -r finding variant; do
  [ -n "$finding" ] || continue
  dir=$results/$finding/$variant
  mkdir -p "$dir"
  name=$finding-$variant
  if [ "$prebuilt" = 0 ]; then
    record "$dir/build" "$timeout" cmake --build "$build" --target "$name"
  fi
  if [ "$(cat "$dir/build.status" 2>/dev/null)" != "exit 0" ]; then
    echo "run: $name: not built (log: $dir/build.log)"
    failed=1
    continue
  fi
  k=1
  while [ "$k" -le "$repeat" ]; do
    rm -f "$dir/run-$k.jsonl"
    if record "$dir/run-$k" "$timeout" env TORCH_TIDY_PROBE_TRACE="$dir/run-$k.jsonl" \
      TORCH_TIDY_PROBE_STOP_AFTER="$stop_after" "$build/programs/$name"; then
      echo "run: $name: run $k on $device: $(cat "$dir/run-$k.seconds") s"
    else
      echo "run: $name: run $k on $device: $(cat "$dir/run-$k.status") (log: $dir/run-$k.log)"
      failed=1
    fi
    k=$((k + 1))
  done
done <<EOF
$variants
EOF
exit "$failed"
