#!/usr/bin/env python3
"""Puts the pinned source tree of each corpus project under
~/.cache/torch-tidy/corpus/<owner>+<name>/.

    materialize.py [--dest DIR] [--mirror DIR] [--downloads DIR] [PROJECT ...]

PROJECT is a folder of test/corpus/ (owner+name, owner/name or its path);
with none, every project is materialised. A tree already at its pinned
version is left alone. A tree is unpacked into a temporary folder next to its
destination and renamed into place, so a destination is either the complete
pinned tree or absent. Exit status: 0 all done, 1 some project failed,
2 bad arguments.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
CACHE = Path.home() / ".cache" / "torch-tidy"
STAMP = ".torch-tidy-corpus.json"  # what a materialised tree was made from


class Failure(Exception):
    """A project that could not be materialised; the message says why."""


def load_project(folder):
    try:
        project = json.loads((folder / "project.json").read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise Failure(f"cannot read {folder / 'project.json'}: {err}")
    for key in ("repository", "commit", "source"):
        if key not in project:
            raise Failure(f"{folder / 'project.json'}: no '{key}'")
    return project


def project_folders(names):
    """The project folders named on the command line, or all of them."""
    if not names:
        return sorted(p.parent for p in CORPUS.glob("*/project.json"))
    folders = []
    for name in names:
        folder = Path(name)
        if not (folder / "project.json").is_file():
            folder = CORPUS / name.strip("/").replace("/", "+")
        if not (folder / "project.json").is_file():
            raise SystemExit(f"materialize: no corpus project '{name}' "
                             f"(no project.json under {folder})")
        folders.append(folder)
    return folders


def stamp_of(project):
    stamp = {"repository": project["repository"], "commit": project["commit"],
             "source": project["source"]}
    if project.get("configure"):
        stamp["configure"] = project["configure"]
    return stamp


def git(*args, **kwargs):
    return subprocess.run(["git", *args], capture_output=True, **kwargs)


def first_line(stderr):
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    return next((l for l in lines if l.startswith("fatal:")), lines[0] if lines else "")


def mirror_git_dir(mirror, repository):
    """The git directory of `repository` in the mirror, or None."""
    base = mirror / repository.replace("/", "+")
    for candidate in (base / "repo" / ".git", base / "repo", base / ".git", base):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def unpack_tar(archive, into, strip=0, subdir=""):
    """Extracts `archive` (a path or a file object) into `into`, dropping the
    first `strip` path components and keeping only `subdir` (which becomes
    the root). Members that would land outside `into` are refused."""
    prefix = [p for p in subdir.strip("/").split("/") if p]
    count = 0
    if not hasattr(archive, "read"):
        with open(archive, "rb") as f:
            return unpack_tar(f, into, strip, subdir)
    with tarfile.open(fileobj=archive, mode="r|*") as tar:  # read once, in order
        for member in tar:
            parts = [p for p in member.name.split("/") if p not in ("", ".")]
            parts = parts[strip:]
            if parts[:len(prefix)] != prefix or len(parts) == len(prefix):
                continue
            member.name = "/".join(parts[len(prefix):])
            if member.islnk():  # hard links name another member of the archive
                target = [p for p in member.linkname.split("/") if p not in ("", ".")]
                member.linkname = "/".join(target[strip + len(prefix):])
            tar.extract(member, into, filter="data")
            count += 1
    if count == 0:
        raise Failure(f"nothing to unpack (strip={strip}, subdir='{subdir}')")


def files_from_git(git_dir, commit, into):
    """Writes every regular file of `commit` whose blob `git_dir` has into
    `into`; returns the paths whose blobs are missing."""
    listing = git("--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit)
    if listing.returncode != 0:
        raise Failure(f"cannot list {commit} in {git_dir}: "
                      f"{first_line(listing.stderr.decode(errors='replace'))}")
    missing = []
    for record in listing.stdout.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, kind, blob = meta.decode().split()
        name = path.decode(errors="replace")
        if kind != "blob" or mode == "120000":
            continue  # submodules, symbolic links
        content = git("--git-dir", str(git_dir), "cat-file", "blob", blob)
        if content.returncode != 0:
            missing.append(name)
            continue
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.stdout)
        if mode == "100755":
            target.chmod(0o755)
    return missing


def from_git(project, url, mirror, tmp):
    commit = project["commit"]
    git_dir = mirror_git_dir(mirror, project["repository"]) if mirror else None
    if git_dir and git("--git-dir", str(git_dir), "cat-file", "-e",
                       commit + "^{commit}").returncode == 0:
        archive = subprocess.Popen(["git", "--git-dir", str(git_dir), "archive",
                                    "--format=tar", commit],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            unpack_tar(archive.stdout, tmp)
            archive.stdout.close()
            if archive.wait() == 0:
                return f"from the mirror {git_dir}"
        except tarfile.TarError:
            archive.kill()
            archive.wait()
        # A mirror may lack the largest blobs (data files, PDFs): take the
        # files it has, one by one, and say which are missing.
        for entry in tmp.iterdir():
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        missing = files_from_git(git_dir, commit, tmp)
        return (f"from the mirror {git_dir}, file by file; {len(missing)} "
                f"file(s) it lacks were left out: " + ", ".join(missing[:5]) +
                (" ..." if len(missing) > 5 else ""))
    why = (f"the mirror {git_dir} lacks commit {commit}" if git_dir
           else f"no mirror of {project['repository']} under {mirror}")
    clone = tmp / ".clone"
    done = git("clone", "--quiet", "--no-checkout", url, str(clone), text=True)
    if done.returncode != 0:
        raise Failure(f"{why}, and git clone {url} failed: {first_line(done.stderr)}")
    done = git("-C", str(clone), "-c", "advice.detachedHead=false", "checkout",
               "--quiet", commit, text=True)
    if done.returncode != 0:
        raise Failure(f"{why}, and {url} has no commit {commit}: {first_line(done.stderr)}")
    shutil.rmtree(clone / ".git")
    for entry in clone.iterdir():
        entry.rename(tmp / entry.name)
    clone.rmdir()
    return f"cloned from {url} ({why})"


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def download(url, sha256, downloads):
    """The checked local copy of `url`, downloaded once into `downloads`."""
    name = urllib.parse.unquote(Path(urllib.parse.urlparse(url).path).name)
    path = downloads / name
    if path.is_file():
        if sha256_of(path) != sha256:
            raise Failure(f"{path} does not have the sha256 {sha256}; "
                          "remove it to download it again")
        return path
    downloads.mkdir(parents=True, exist_ok=True)
    part = Path(tempfile.mkstemp(dir=downloads, prefix=name + ".", suffix=".part")[1])
    try:
        print(f"  downloading {url}", flush=True)
        with urllib.request.urlopen(url, timeout=60) as response, open(part, "wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
        got = sha256_of(part)
        if got != sha256:
            raise Failure(f"{url} has sha256 {got}, expected {sha256}")
        part.rename(path)
    except OSError as err:
        raise Failure(f"cannot download {url}: {err}")
    finally:
        part.unlink(missing_ok=True)
    return path


def from_tarball(source, downloads, tmp):
    for key in ("tarball", "sha256"):
        if key not in source:
            raise Failure(f"a tarball source needs '{key}'")
    archive = download(source["tarball"], source["sha256"].lower(), downloads)
    try:
        unpack_tar(archive, tmp, int(source.get("strip", 0)), source.get("subdir", ""))
    except (tarfile.TarError, EOFError, OSError) as err:
        raise Failure(f"cannot unpack {archive}: {err}")
    return f"from {archive}"


def configure_file(tree, spec):
    """Writes spec["out"] from the template spec["in"] as CMake's
    configure_file() would: `#cmakedefine VAR ...` becomes `#define VAR ...`
    when spec["values"] sets VAR, `/* #undef VAR */` otherwise, and `@VAR@`
    its value (empty when unset)."""
    values = spec.get("values", {})
    try:
        template = (tree / spec["in"]).read_text()
    except (KeyError, OSError) as err:
        raise Failure(f"cannot configure {spec.get('out')}: {err}")
    lines = []
    for line in template.splitlines():
        words = line.split(None, 2)
        if words and words[0] == "#cmakedefine" and len(words) > 1:
            name = words[1]
            line = (line.replace("#cmakedefine", "#define", 1) if values.get(name)
                    else f"/* #undef {name} */")
        lines.append(re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)@",
                            lambda m: str(values.get(m.group(1), "")), line))
    out = (tree / spec.get("out", "")).resolve()
    if not spec.get("out") or not out.is_relative_to(tree.resolve()):
        raise Failure(f"cannot configure '{spec.get('out')}': not a file of the tree")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)  # CMake makes the folders too
        out.write_text("\n".join(lines) + "\n")
    except OSError as err:
        raise Failure(f"cannot configure {spec['out']}: {err}")


def materialize_tree(spec, args):
    """Puts the pinned tree of `spec` (a project, or one of its
    dependencies) under args.dest, with the files its "configure" entries
    generate; says how."""
    target = args.dest / spec["repository"].replace("/", "+")
    stamp = target / STAMP
    if stamp.is_file():
        try:
            if json.loads(stamp.read_text()) == stamp_of(spec):
                return "up to date"
        except json.JSONDecodeError:
            pass
    args.dest.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=args.dest, prefix=target.name + ".part."))
    try:
        source = spec["source"]
        if "git" in source:
            how = from_git(spec, source["git"], args.mirror, tmp)
        elif "tarball" in source:
            how = from_tarball(source, args.downloads, tmp)
        else:
            raise Failure("'source' names neither 'git' nor 'tarball'")
        for generated in spec.get("configure", []):
            configure_file(tmp, generated)
        (tmp / STAMP).write_text(json.dumps(stamp_of(spec), indent=1) + "\n")
        tmp.chmod(0o755)  # mkdtemp made it private
        if target.exists():  # an older version: swap it out, then drop it
            old = Path(tempfile.mkdtemp(dir=args.dest, prefix=target.name + ".old."))
            target.rename(old / "tree")
            tmp.rename(target)
            shutil.rmtree(old)
        else:
            tmp.rename(target)
        return how
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def materialize(folder, args):
    """The project's tree, then those of its dependencies (header-only
    libraries Debian does not package, put next to it)."""
    project = load_project(folder)
    how = materialize_tree(project, args)
    for dependency in project.get("dependencies", []):
        for key in ("repository", "commit", "source"):
            if key not in dependency:
                raise Failure(f"{folder / 'project.json'}: a dependency has no '{key}'")
        done = materialize_tree(dependency, args)
        how += f"; {dependency['repository']}: {done}"
    return how


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", metavar="PROJECT")
    parser.add_argument("--dest", type=Path, default=CACHE / "corpus",
                        help="where the trees go (default: %(default)s)")
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"),
                        help="folder of git mirrors <owner>+<name>/ (default: %(default)s)")
    parser.add_argument("--downloads", type=Path, default=CACHE / "src",
                        help="where tarballs are kept (default: %(default)s)")
    args = parser.parse_args()
    failed = 0
    for folder in project_folders(args.projects):
        try:
            print(f"{folder.name}: {materialize(folder, args)}", flush=True)
        except Failure as err:
            print(f"{folder.name}: FAILED: {err}", file=sys.stderr, flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
