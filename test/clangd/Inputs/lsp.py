"""A small Language Server Protocol client (JSON-RPC over stdio), standard
library only, for driving torch-clangd the way an editor does.

    with Client([torch_clangd, "--log=error"], log_path) as c:
        c.initialize(root_dir)
        c.open(path, text)
        diags = c.wait_diagnostics(uri_of(path), version=1)
        actions = c.code_actions(uri_of(path), diags[0])
        new_text = apply_edits(text, edits_for(actions[0], uri_of(path)))
"""

import json
import os
import queue
import subprocess
import threading
import time
import urllib.parse
import urllib.request


class LspError(Exception):
    pass


def uri_of(path):
    return "file://" + urllib.request.pathname2url(os.path.abspath(path))


def path_of(uri):
    return urllib.request.url2pathname(urllib.parse.urlparse(uri).path)


def offset_of(text, position):
    """The index in `text` of an LSP position (line, UTF-16 character)."""
    lines = text.split("\n")
    line = position["line"]
    if line > len(lines):
        raise LspError("position %r is past the end of the text" % position)
    start = sum(len(l) + 1 for l in lines[:line])
    if line == len(lines):
        return start
    units, index = 0, 0
    content = lines[line]
    while index < len(content) and units < position["character"]:
        units += 2 if ord(content[index]) > 0xFFFF else 1
        index += 1
    return start + index


def position_of(text, offset):
    """The LSP position (line, UTF-16 character) of index `offset`."""
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1:]
    return {"line": line,
            "character": sum(2 if ord(ch) > 0xFFFF else 1 for ch in column)}


def apply_edits(text, edits):
    """Applies LSP TextEdits (all against `text`) and returns the new text.
    Overlapping edits are an error, as they are for an editor."""
    spans = sorted(((offset_of(text, e["range"]["start"]),
                     offset_of(text, e["range"]["end"]), e["newText"])
                    for e in edits), key=lambda s: (s[0], s[1]))
    for (s1, e1, _), (s2, _, _) in zip(spans, spans[1:]):
        if s2 < e1:
            raise LspError("overlapping edits at offsets %d and %d" % (s1, s2))
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def edits_for(action, uri):
    """The TextEdits a CodeAction makes to the document `uri`."""
    edit = action.get("edit", {})
    edits = list(edit.get("changes", {}).get(uri, []))
    for change in edit.get("documentChanges", []):
        if change.get("textDocument", {}).get("uri") == uri:
            edits.extend(change["edits"])
    return edits


class Client:
    """One language server process. Server-to-client requests are answered
    (configuration with nulls, everything else with null); notifications are
    kept in order, and publishDiagnostics by document."""

    def __init__(self, argv, stderr_path, cwd=None, env=None):
        self._stderr = open(stderr_path, "wb")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=self._stderr, cwd=cwd, env=env)
        self._next_id = 1
        self._responses = {}
        self._cond = threading.Condition()
        self._diagnostics = []  # (arrival time, params)
        self.notifications = []
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()

    # -- transport -------------------------------------------------------
    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _read_message(self):
        headers = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii", "replace").partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        body = b""
        while len(body) < length:
            chunk = self.proc.stdout.read(length - len(body))
            if not chunk:
                return None
            body += chunk
        return json.loads(body.decode("utf-8"))

    def _read_loop(self):
        try:
            while True:
                message = self._read_message()
                if message is None:
                    break
                self._dispatch(message)
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()

    def _dispatch(self, message):
        if "id" in message and "method" in message:
            # A request from the server.
            result = None
            if message["method"] == "workspace/configuration":
                result = [None] * len(message["params"].get("items", []))
            self._send({"id": message["id"], "result": result})
            return
        with self._cond:
            if "id" in message:
                self._responses[message["id"]] = message
            elif message.get("method") == "textDocument/publishDiagnostics":
                self._diagnostics.append((time.monotonic(), message["params"]))
            else:
                self.notifications.append(message)
            self._cond.notify_all()

    def _wait(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value is not None:
                    return value
                if self._closed:
                    raise LspError("the server exited (code %s) while waiting "
                                   "for %s" % (self.proc.poll(), what))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LspError("timed out after %.0f s waiting for %s"
                                   % (timeout, what))
                self._cond.wait(left)

    # -- JSON-RPC --------------------------------------------------------
    def request(self, method, params, timeout=120):
        rid = self._next_id
        self._next_id += 1
        self._send({"id": rid, "method": method, "params": params})
        response = self._wait(lambda: self._responses.pop(rid, None), timeout,
                              "the response to " + method)
        if "error" in response:
            raise LspError("%s failed: %s" % (method, response["error"]))
        return response.get("result")

    def notify(self, method, params):
        self._send({"method": method, "params": params})

    # -- LSP -------------------------------------------------------------
    def initialize(self, root, capabilities=None):
        caps = capabilities or {
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True,
                                       "versionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix", "refactor",
                                                    "source"]}}},
                "synchronization": {"didSave": True},
            },
            "workspace": {"workspaceEdit": {"documentChanges": True},
                          "configuration": True},
        }
        result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": uri_of(root),
            "capabilities": caps,
        })
        self.notify("initialized", {})
        return result

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri_of(path), "languageId": "cpp", "version": version,
            "text": text}})

    def change(self, path, text, version):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri_of(path), "version": version},
            "contentChanges": [{"text": text}]})

    def close(self, path):
        self.notify("textDocument/didClose",
                    {"textDocument": {"uri": uri_of(path)}})

    def wait_diagnostics(self, path, version, timeout=300):
        """The first diagnostics published for `path` at `version`, and the
        time they arrived (time.monotonic())."""
        uri = uri_of(path)

        def find():
            for arrived, params in self._diagnostics:
                if params["uri"] == uri and params.get("version") == version:
                    return arrived, params["diagnostics"]
            return None
        arrived, diags = self._wait(find, timeout, "diagnostics of %s version %d"
                                    % (os.path.basename(path), version))
        return diags, arrived

    def code_actions(self, path, diagnostic):
        """The quick fixes the server offers for one diagnostic."""
        actions = self.request("textDocument/codeAction", {
            "textDocument": {"uri": uri_of(path)},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic], "only": ["quickfix"]},
        }) or []
        return [a for a in actions if a.get("kind") == "quickfix"]

    def shutdown(self, timeout=300):
        """Shuts the server down as an editor does; returns its exit code."""
        try:
            self.request("shutdown", None, timeout=timeout)
            self.notify("exit", None)
        except (LspError, BrokenPipeError, OSError):
            pass
        return self.wait_exit(timeout)

    def wait_exit(self, timeout=300):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise LspError("the server did not exit within %d s" % timeout)
        finally:
            self._stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self._stderr.closed:
            self._stderr.close()
        return False


def torch_findings(diagnostics):
    """The diagnostics of the torch-* checks."""
    return [d for d in diagnostics if str(d.get("code", "")).startswith("torch-")]


def start_of(diagnostic):
    """A sort key: where a diagnostic starts."""
    start = diagnostic["range"]["start"]
    return (start["line"], start["character"])


SEVERITIES = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def describe(diagnostic):
    """`LINE:COL-LINE:COL severity check: message` with 1-based lines and
    columns."""
    r = diagnostic["range"]
    return "%d:%d-%d:%d %s %s: %s" % (
        r["start"]["line"] + 1, r["start"]["character"] + 1,
        r["end"]["line"] + 1, r["end"]["character"] + 1,
        SEVERITIES.get(diagnostic.get("severity"), "?"),
        diagnostic.get("code", ""), diagnostic["message"])
