#!/usr/bin/env python3
"""Runs one check test through both front ends of torch-tidy.

Usage (from lit):
  check_torch_tidy.py [options] INPUT CHECK_NAME TEMP [-- TIDY_ARGS [-- COMPILER_ARGS]]

For each front end (the torch-tidy binary, and clang-tidy-19 with
TorchTidyModule.so loaded) it
  1. copies INPUT with every `// CHECK-...:` comment blanked, so that line
     numbers stay the same;
  2. runs the front end with --fix on the copy and checks its output against
     the CHECK-MESSAGES lines of INPUT (FileCheck, with every unexpected
     warning or error an error);
  3. checks the fixed copy against the CHECK-FIXES lines (each a full line),
     or, where INPUT has none, that the copy is unchanged;
  4. runs the front end again on the fixed copy: the fix must be idempotent
     (nothing changes, and only the findings that carried no fix remain);
  5. compiles the fixed copy with clang++ -fsyntax-only.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

CHECK_COMMENT = re.compile(r"//\s*CHECK-[A-Z0-9-]*:[^\r\n]*")
FIX_APPLIED = "note: FIX-IT applied suggested code changes"


def fail(message, output=None):
    sys.stderr.write("check_torch_tidy.py: error: %s\n" % message)
    if output:
        sys.stderr.write("------ output ------\n%s\n--------------------\n" % output)
    sys.exit(1)


def run(cmd, cwd=None):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          cwd=cwd, universal_newlines=True, errors="replace")
    return proc.returncode, proc.stdout


def warning_lines(output):
    return [l for l in output.splitlines()
            if re.search(r": (warning|error): ", l)]


def fixed_findings(output):
    """The findings whose fix was applied: a warning followed, before the
    next warning, by at least one FIX-IT note (a fix may edit several
    places)."""
    count, pending = 0, False
    for line in output.splitlines():
        if re.search(r": (warning|error): ", line):
            pending = True
        elif FIX_APPLIED in line and pending:
            count += 1
            pending = False
    return count


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--torch-tidy", required=True)
    p.add_argument("--clang-tidy", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--filecheck", default="FileCheck")
    p.add_argument("--cxx", default="clang++-19")
    p.add_argument("--inputs", required=True, help="mock torch headers")
    p.add_argument("--torch-include", default=None,
                   help="use these real LibTorch include dirs (':'-separated) "
                        "instead of the mock headers")
    p.add_argument("--std", default="c++17",
                   help="the C++ standard (LibTorch 2.x needs c++20)")
    p.add_argument("--front-end", choices=["both", "torch-tidy", "plugin"],
                   default="both")
    p.add_argument("--check-suffix", default="",
                   help="use CHECK-MESSAGES-<S> and CHECK-FIXES-<S> prefixes")
    p.add_argument("--no-compile", action="store_true",
                   help="do not compile the fixed file")
    p.add_argument("input")
    p.add_argument("check_name")
    p.add_argument("temp")
    args, rest = p.parse_known_args()

    tidy_args, compiler_args = [], []
    if rest and rest[0] == "--":
        rest = rest[1:]
    if "--" in rest:
        i = rest.index("--")
        tidy_args, compiler_args = rest[:i], rest[i + 1:]
    else:
        tidy_args = rest

    suffix = "-" + args.check_suffix if args.check_suffix else ""
    msg_prefix, fix_prefix = "CHECK-MESSAGES" + suffix, "CHECK-FIXES" + suffix

    with open(args.input, encoding="utf-8", newline="") as f:
        original = f.read()
    has_messages = msg_prefix + ":" in original
    has_fixes = fix_prefix + ":" in original
    stripped = CHECK_COMMENT.sub("//", original)

    if args.torch_include:
        includes = []
        for d in args.torch_include.split(":"):
            includes += ["-isystem", d]
    else:
        includes = ["-isystem", args.inputs]
    cflags = ["-std=" + args.std] + includes + compiler_args

    front_ends = {
        "torch-tidy": [args.torch_tidy],
        "plugin": [args.clang_tidy, "-load=" + args.plugin],
    }
    chosen = ["torch-tidy", "plugin"] if args.front_end == "both" else [args.front_end]

    os.makedirs(os.path.dirname(os.path.abspath(args.temp)), exist_ok=True)
    for fe in chosen:
        base = "%s.%s" % (args.temp, fe)
        src = base + ".cpp"
        with open(src, "w", encoding="utf-8", newline="") as f:
            f.write(stripped)
        tidy = front_ends[fe] + [src, "-fix", "--checks=-*," + args.check_name,
                                 "--export-fixes=" + base + ".yaml"] + tidy_args
        cmd = tidy + ["--"] + cflags
        rc, out = run(cmd)
        context = "[%s] %s" % (fe, " ".join(shlex.quote(c) for c in cmd))
        if rc != 0:
            fail("%s exited with %d" % (context, rc), out)
        with open(base + ".msg", "w", encoding="utf-8") as f:
            f.write(out)

        # 2. messages
        if has_messages:
            rc, fc = run([args.filecheck, "-input-file=" + base + ".msg",
                          args.input, "-check-prefix=" + msg_prefix,
                          "-implicit-check-not={{warning|error}}:"])
            if rc != 0:
                fail("%s: messages do not match" % context, fc + "\n" + out)
        elif warning_lines(out):
            fail("%s: unexpected diagnostics" % context, out)

        # 3. fixes
        with open(src, encoding="utf-8", newline="") as f:
            fixed = f.read()
        if has_fixes:
            rc, fc = run([args.filecheck, "-input-file=" + src, args.input,
                          "-check-prefix=" + fix_prefix, "-match-full-lines"])
            if rc != 0:
                fail("%s: fixed code does not match" % context, fc)
        elif fixed != stripped:
            fail("%s: the file changed but the test has no %s lines"
                 % (context, fix_prefix), fixed)

        # 4. idempotence
        unfixed = len(warning_lines(out)) - fixed_findings(out)
        rc, out2 = run(tidy + ["--"] + cflags)
        if rc != 0:
            fail("%s: second run exited with %d" % (context, rc), out2)
        with open(src, encoding="utf-8", newline="") as f:
            refixed = f.read()
        if refixed != fixed:
            fail("%s: a second --fix changed the file again" % context, refixed)
        again = len(warning_lines(out2))
        if again != unfixed:
            fail("%s: after --fix, %d findings remain; expected the %d that "
                 "carry no fix" % (context, again, unfixed), out2)

        # 5. the fixed file compiles
        if not args.no_compile:
            rc, cc = run([args.cxx, "-fsyntax-only"] + cflags + [src])
            if rc != 0:
                fail("%s: the fixed file does not compile" % context, cc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
