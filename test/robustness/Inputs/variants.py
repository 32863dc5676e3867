#!/usr/bin/env python3
"""variants.py DIR: writes DIR/<name>.cpp and DIR/<name>.fixed, byte for
byte, for the encodings a source file may come in: plain, invalid UTF-8 in a
comment and a string, a UTF-8 byte order mark, CRLF line endings, and CRLF
with a BOM. <name>.fixed is what --fix must make of <name>.cpp."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
plain = open(os.path.join(here, "train.cpp"), "rb").read()
fixed = open(os.path.join(here, "train.fixed"), "rb").read()

# Invalid UTF-8: a lone continuation byte, a truncated sequence, an
# overlong encoding and 0xff, in a comment and in a string literal.
bad = b"// caf\xe9 \x80 \xc3 \xc0\xaf \xff\n" \
      b"static const char *kName = \"\xe2\x82 \xfe\";\n"


def crlf(b):
    return b.replace(b"\n", b"\r\n")


variants = {
    "plain": (plain, fixed),
    "bad-utf8": (bad + plain, bad + fixed),
    "bom": (b"\xef\xbb\xbf" + plain, b"\xef\xbb\xbf" + fixed),
    "crlf": (crlf(plain), crlf(fixed)),
    "bom-crlf": (b"\xef\xbb\xbf" + crlf(plain), b"\xef\xbb\xbf" + crlf(fixed)),
}
os.makedirs(sys.argv[1], exist_ok=True)
for name, (before, after) in variants.items():
    with open(os.path.join(sys.argv[1], name + ".cpp"), "wb") as f:
        f.write(before)
    with open(os.path.join(sys.argv[1], name + ".fixed"), "wb") as f:
        f.write(after)
