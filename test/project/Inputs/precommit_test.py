#!/usr/bin/env python3
"""precommit_test.py SOURCE_ROOT BIN_DIR MOCK_TORCH WORK_DIR

Commits through the real pre-commit hook of SOURCE_ROOT/.pre-commit-hooks.yaml
in a temporary git repository holding the sample project:
  1. a staged leaky file fails the commit, and the finding is shown;
  2. the fixed file commits;
  3. the fixing hook (torch-tidy-fix) rewrites a new leak and stops the
     commit; staged again, it commits.
"""
import os
import shutil
import subprocess
import sys

source_root, bin_dir, mock_torch, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ)
env["PATH"] = bin_dir + os.pathsep + env["PATH"]
env["PRE_COMMIT_HOME"] = os.path.join(work, "pre-commit-home")
env["GIT_CONFIG_NOSYSTEM"] = "1"
env["HOME"] = work
for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
    env.pop(k, None)


def run(cmd, cwd, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if check and p.returncode != 0:
        sys.exit("precommit_test.py: %s failed (%d):\n%s" % (cmd, p.returncode, p.stdout))
    return p


def git_init(path):
    run(["git", "init", "-q", "-b", "main"], path)
    run(["git", "config", "user.email", "dev@example.com"], path)
    run(["git", "config", "user.name", "Dev"], path)


# The hook repository: just the hooks file, as in this source tree.
hooks = os.path.join(work, "hooks")
os.makedirs(hooks)
shutil.copy(os.path.join(source_root, ".pre-commit-hooks.yaml"), hooks)
git_init(hooks)
run(["git", "add", "."], hooks)
run(["git", "commit", "-q", "-m", "hooks"], hooks)
rev = run(["git", "rev-parse", "HEAD"], hooks).stdout.strip()

# The user's project.
repo = os.path.join(work, "project")
shutil.copytree(os.path.join(source_root, "test", "project", "Inputs", "sample"), repo)
run([sys.executable, os.path.join(source_root, "test", "project", "Inputs",
                                  "make_compile_db.py"), repo,
     os.path.join(repo, "build"), mock_torch], repo)
with open(os.path.join(repo, ".gitignore"), "w") as f:
    f.write("build/\n")
with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
    f.write("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: torch-tidy\n" % (hooks, rev))
git_init(repo)
run(["pre-commit", "install"], repo)

# 1. Staged leaky files fail the commit.
run(["git", "add", "."], repo)
p = run(["git", "commit", "-q", "-m", "leaky"], repo, check=False)
print("leaky commit exit code:", p.returncode)
print(p.stdout)

# 2. Fixed, they commit.
train = os.path.join(repo, "src", "train.cpp")
eval_ = os.path.join(repo, "src", "eval.cpp")
model = os.path.join(repo, "include", "model.h")
for path, old, new in ((train, "epoch_loss += loss;", "epoch_loss += loss.item<float>();"),
                       (eval_, "model->eval();", "model->eval();\n  torch::NoGradGuard no_grad;"),
                       (model, "  torch::Tensor total = torch::zeros({});",
                        "  torch::NoGradGuard no_grad;\n  torch::Tensor total = torch::zeros({});")):
    text = open(path).read()
    open(path, "w").write(text.replace(old, new))
run(["git", "add", "."], repo)
p = run(["git", "commit", "-q", "-m", "fixed"], repo, check=False)
print("fixed commit exit code:", p.returncode)
print(p.stdout)

# 3. The fixing hook.
with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
    f.write("repos:\n- repo: %s\n  rev: %s\n  hooks:\n  - id: torch-tidy-fix\n" % (hooks, rev))
with open(train, "a") as f:
    f.write("\nvoid more(torch::nn::Linear &m, const torch::Tensor &x) {\n"
            "  torch::Tensor sum = torch::zeros({});\n"
            "  for (int i = 0; i < 3; ++i)\n"
            "    sum += m(x).sum();\n}\n")
run(["git", "add", "."], repo)
p = run(["git", "commit", "-q", "-m", "more"], repo, check=False)
print("fixing hook first commit exit code:", p.returncode)
print("after the fixing hook:", [l.strip() for l in open(train) if "sum +=" in l])
run(["git", "add", "."], repo)
p = run(["git", "commit", "-q", "-m", "more, fixed"], repo, check=False)
print("fixing hook second commit exit code:", p.returncode)
print(run(["git", "log", "--format=%s"], repo).stdout)
