#!/usr/bin/env python3
"""Print the compile definitions a CasADi was built with, one per line.

Usage: casadi-compile-flags.py <includedir>/casadi/config.h

CasADi's casadi.pc carries no -D flags, but code compiled against CasADi's
internal classes (the qpm nlpsol plugin) must see the same ones as
libcasadi: CASADI_WITH_THREAD and CASADI_WITH_THREADSAFE_SYMBOLICS change
the layout of classes such as ProtoFunction (std::mutex members), WITH_DL
and CASADI_VERSION the plugin interface. The installed config.h records
the flags CasADi was compiled with in the string macro
CASADI_COMPILER_FLAGS; this prints its -D/-U flags and -pthread, in order.
meson runs it at configure time (root meson.build); a missing file or
macro is an error (exit status 1, message on stderr).
"""
import re
import shlex
import sys

MACRO = 'CASADI_COMPILER_FLAGS'


def fail(msg):
    sys.stderr.write('casadi-compile-flags: ' + msg + '\n')
    sys.exit(1)


def c_string_literals(text):
    """The contents of the C string literals at the start of text, joined
    (adjacent literals concatenate), with the simple escapes undone."""
    out = []
    pos = 0
    literal = re.compile(r'\s*"((?:[^"\\\n]|\\.)*)"')
    while True:
        m = literal.match(text, pos)
        if not m:
            break
        out.append(re.sub(r'\\(.)', lambda e: {'n': ' ', 't': ' '}.get(e.group(1), e.group(1)),
                          m.group(1)))
        pos = m.end()
    return ''.join(out) if out else None


def main(argv):
    if len(argv) != 2:
        fail('usage: casadi-compile-flags.py <path to casadi/config.h>')
    path = argv[1]
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError as e:
        fail('cannot read CasADi\'s config.h: %s' % e)
    text = re.sub(r'\\\n', ' ', text)  # line continuations
    m = re.search(r'^[ \t]*#[ \t]*define[ \t]+' + MACRO + r'\b(.*)$', text, re.MULTILINE)
    if not m:
        fail('%s has no #define %s (not a CasADi config.h?)' % (path, MACRO))
    value = c_string_literals(m.group(1))
    if value is None:
        fail('%s: %s is not a string literal' % (path, MACRO))
    try:
        words = shlex.split(value)
    except ValueError as e:
        fail('%s: cannot split %s: %s' % (path, MACRO, e))
    flags = []
    for w in words:
        if w == '-pthread' or (len(w) > 2 and w[:2] in ('-D', '-U')):
            flags.append(w)
    if not any(f.startswith('-DCASADI_VERSION=') for f in flags):
        fail('%s: %s defines no CASADI_VERSION (the plugin interface number): %r'
             % (path, MACRO, value))
    for f in flags:
        print(f)


if __name__ == '__main__':
    main(sys.argv)
