#!/usr/bin/env python3
"""Every section of a docs/ page that a comment or a page names must exist.

Scans src/, include/, docs/, README.md, bench/, scripts/, test/ and examples/
for references of these forms and checks each against the headings of the page:

  docs/<page>.md#<anchor>             the anchor GitHub makes from a heading
  docs/<page>.md, "<Section title>"   straight or curly quotes, the comma optional,
                                      the title possibly continued on the next
                                      line of a // or # comment (in a docs/ page
                                      also <page>.md, "<Section title>")
  [text](<relative path>.md#<anchor>) a Markdown link in a .md file, resolved
  [text](#<anchor>)                   from that file's folder

and that every docs/<page>.md named anywhere exists. A title matches a heading
when both are equal after dropping inline code and emphasis marks and folding
case and spaces. Prints each broken reference as FILE:LINE: ... and exits 1;
also exits 1 when it finds no reference at all (the scan itself broke).

Usage: doc_references.py [SOURCE_ROOT]   (default: the folder above this file)
"""
import os
import re
import sys

SCAN = ["src", "include", "docs", "README.md", "bench", "scripts", "test", "examples"]
TEXT_SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".cc", ".md", ".sh", ".py", ".build",
                 ".txt", ".in", ".pc", ".cfg", ".toml", ".yml", ".yaml", ".m", ""}

# A comment marker at the start of a line: dropped when lines are joined, so a
# title broken across two comment lines reads as one.
COMMENT_PREFIX = re.compile(r"^\s*(?://+!?|/\*+|\*+(?!\*)|#+(?=\s)|--|>)?\s*")
PAGE = r"docs/(?P<page>[A-Za-z0-9_.-]+?)\.md"
TITLE = r"[`)\]]*(?:\s*,\s*|\s+)(?:\"(?P<t1>[^\"]{1,200})\"|“(?P<t2>[^”“\"]{1,200})”)"
QUOTED = re.compile(PAGE + TITLE)
# In a docs/ page, another page by its bare name: algorithm.md, "Section".
SIBLING = re.compile(r"(?<![\w/.-])(?P<page>[A-Za-z0-9_-]+)\.md" + TITLE)
ANCHORED = re.compile(PAGE + r"#(?P<anchor>[\w%-]+)")
BARE = re.compile(PAGE + r"\b")
MD_LINK = re.compile(r"\]\((?P<target>[^()\s#]*)#(?P<anchor>[\w%-]+)\)")


def strip_inline(text):
    """Heading or title text as GitHub renders it: no code ticks, no emphasis, no links."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)
    return text.strip()


def normalized(title):
    return " ".join(strip_inline(title).split()).casefold()


def github_slug(heading):
    slug = strip_inline(heading).lower()
    slug = re.sub(r"[^\w\- ]", "", slug)
    return slug.replace(" ", "-")


def headings(path):
    """(titles, anchors) of a Markdown file: ATX and setext headings outside code fences."""
    titles, anchors, seen = set(), set(), {}
    fence = None
    previous = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    for line in lines:
        stripped = line.strip()
        marker = re.match(r"^(```+|~~~+)", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            previous = ""
            continue
        if fence is not None:
            continue
        text = None
        atx = re.match(r"^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$", line)
        if atx:
            text = atx.group(1)
        elif re.match(r"^ {0,3}(=+|-+)\s*$", line) and previous.strip() and \
                not previous.lstrip().startswith(("|", "-", "*", ">")):
            text = previous.strip()
        if text is not None:
            titles.add(normalized(text))
            slug = github_slug(text)
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else "%s-%d" % (slug, count))
        previous = line
    return titles, anchors


def files_to_scan(root):
    for entry in SCAN:
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, names in os.walk(path):
            # Build folders (meson's, wherever they are) and hidden ones hold no sources.
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                             not os.path.exists(os.path.join(folder, d, "meson-private")))
            for name in sorted(names):
                if os.path.splitext(name)[1] in TEXT_SUFFIXES:
                    yield os.path.join(folder, name)


def joined_text(path):
    """The file's lines, comment markers dropped, joined by single spaces, and
    for each line the offset where it starts in the joined text."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data[:8192]:
        return None, None
    parts, starts, offset = [], [], 0
    for line in data.decode("utf-8", errors="replace").splitlines():
        text = COMMENT_PREFIX.sub("", line, count=1).rstrip()
        starts.append(offset)
        parts.append(text)
        offset += len(text) + 1
    return " ".join(parts), starts


def line_of(starts, offset):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    cache = {}

    def page_headings(page_path):
        if page_path not in cache:
            cache[page_path] = headings(page_path) if os.path.isfile(page_path) else None
        return cache[page_path]

    broken, checked = [], set()

    def check(where, page_path, title=None, anchor=None):
        shown = os.path.relpath(page_path, root)
        key = (where, shown, title, anchor)
        if key in checked:
            return
        checked.add(key)
        found = page_headings(page_path)
        if found is None:
            broken.append("%s: %s does not exist" % (where, shown))
        elif title is not None and normalized(title) not in found[0]:
            broken.append('%s: %s has no heading "%s"' % (where, shown, " ".join(title.split())))
        elif anchor is not None and anchor.lower() not in found[1]:
            broken.append("%s: %s has no heading with the anchor #%s" % (where, shown, anchor))

    for path in files_to_scan(root):
        text, starts = joined_text(path)
        if text is None:
            continue
        rel = os.path.relpath(path, root)
        for m in BARE.finditer(text):
            check("%s:%d" % (rel, line_of(starts, m.start())),
                  os.path.join(root, "docs", m.group("page") + ".md"))
        for m in QUOTED.finditer(text):
            check("%s:%d" % (rel, line_of(starts, m.start())),
                  os.path.join(root, "docs", m.group("page") + ".md"),
                  title=m.group("t1") or m.group("t2"))
        if os.path.dirname(path) == os.path.join(root, "docs"):
            for m in SIBLING.finditer(text):
                check("%s:%d" % (rel, line_of(starts, m.start())),
                      os.path.join(root, "docs", m.group("page") + ".md"),
                      title=m.group("t1") or m.group("t2"))
        for m in ANCHORED.finditer(text):
            check("%s:%d" % (rel, line_of(starts, m.start())),
                  os.path.join(root, "docs", m.group("page") + ".md"), anchor=m.group("anchor"))
        if path.endswith(".md"):
            for m in MD_LINK.finditer(text):
                target = m.group("target")
                if re.match(r"^[a-z]+:", target) or (target and not target.endswith(".md")):
                    continue  # a web address, or a link into a file that is not a page
                page_path = os.path.normpath(os.path.join(os.path.dirname(path), target)) \
                    if target else path
                check("%s:%d" % (rel, line_of(starts, m.start())), page_path,
                      anchor=m.group("anchor"))

    for line in broken:
        print(line)
    if not checked:
        print("no reference to a docs/ page found under %s: the scan is broken" % root)
        return 1
    if broken:
        print("%d of %d references to docs/ sections are broken" % (len(broken), len(checked)))
        return 1
    print("all %d references to docs/ pages and their sections exist" % len(checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
