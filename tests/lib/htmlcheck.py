#!/usr/bin/env python3
"""Checks a cudawiz HTML page (tests/cli/html-report.sh and
tests/pkg/html-chromium.sh).

  htmlcheck.py page PAGE JSON   the frame: markers, one report div, the
                                JSON block equal to JSON, no network, no
                                other script, balanced tags, head metas
  htmlcheck.py text PAGE JSON   every finding's code, title and each fix
                                command line of JSON is in PAGE's text
                                (PAGE may be Chromium's --dump-dom)
  htmlcheck.py json PAGE        the JSON block, unescaped, on stdout
  htmlcheck.py wrap PAGE W H    on stdout, a test-only page holding PAGE
                                in W x H iframes (W: widths joined by ",")
                                and a script that writes, once loaded, each
                                frame's widths, its report's colours and
                                the first frame's rendered text into its
                                own DOM, for Chromium's --dump-dom: headless
                                Chromium lays a window out no narrower than
                                500 px, a frame is as narrow as asked
  htmlcheck.py measured DOM     the measurements in a dumped wrapper:
                                "W scrollWidth clientWidth reportWidth
                                background" lines

Prints one line per problem; exits 1 when there is one."""
import html
import html.parser
import json
import re
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.text = [], [], []
        self.scripts, self.json_text, self.in_script = [], None, False
        self.tags = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self.scripts.append(a)
            self.in_script = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append("unbalanced </%s> (open: %s)" %
                                 (tag, "/".join(self.stack[-4:])))
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script:
            self.json_text = (self.json_text or "") + data
        else:
            self.text.append(data)


def parse(path):
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    p = Page()
    p.feed(raw)
    p.close()
    return raw, p


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def wanted(doc):
    for f in doc.get("findings", []):
        yield "code", f["code"]
        yield "title", f["title"]
        for fix in f.get("fix") or []:
            for line in fix.splitlines():
                if line.strip():
                    yield "fix", line


def comparable(doc):
    """doc without the time it was made (two runs, two seconds) and
    without what the valgrind gate sets itself: with its sampling
    (tests/gates.mk) one run of a pair may be under memcheck, which puts
    its preload in the program's LD_PRELOAD, and the other native. The
    facts then differ in that variable alone, and not by cudawiz."""
    facts = doc.get("facts") if isinstance(doc, dict) else None
    env = facts.get("env") if isinstance(facts, dict) else None
    pre = env.get("LD_PRELOAD") if isinstance(env, dict) else None
    if isinstance(pre, dict) and "/valgrind/" in (pre.get("value") or ""):
        env["LD_PRELOAD"] = {"entries": [], "set": False, "value": None}
    # The spec repeats that variable; the host's time is each run's own.
    items = (doc.get("spec") or {}).get("items") if isinstance(doc, dict) else None
    if isinstance(items, dict) and "/valgrind/" in items.get("env.LD_PRELOAD", ""):
        del items["env.LD_PRELOAD"]
    host = doc.get("host") if isinstance(doc, dict) else None
    if isinstance(host, dict):
        host.pop("time", None)
        host.pop("time_unix", None)
    return doc


def check_page(path, json_path):
    raw, p = parse(path)
    probs = list(p.problems)
    if p.stack:
        probs.append("unclosed tags: %s" % "/".join(p.stack))
    with open(json_path, encoding="utf-8") as f:
        want = json.load(f)
    begin = raw.find("<!-- cudawiz-report begin -->")
    end = raw.find("<!-- cudawiz-report end -->")
    if begin < 0 or end < begin:
        probs.append("no report markers")
    elif not raw[begin:end].split("-->", 1)[1].lstrip().startswith(
            '<div class="cudawiz-report">'):
        probs.append("the markers do not hold the report div")
    if not raw.startswith("<!DOCTYPE html>"):
        probs.append("no doctype")
    html_tag = [a for t, a in p.tags if t == "html"]
    if not html_tag or not html_tag[0].get("lang"):
        probs.append("no lang on <html>")
    metas = [a for t, a in p.tags if t == "meta"]
    if not any(m.get("charset", "").lower() == "utf-8" for m in metas):
        probs.append("no charset utf-8")
    if not any(m.get("name") == "viewport" for m in metas):
        probs.append("no viewport meta")
    if len(p.scripts) != 1 or p.scripts[0].get("type") != "application/json" \
            or p.scripts[0].get("class") != "cudawiz-json":
        probs.append("scripts other than the JSON block: %r" % p.scripts)
    for t, a in p.tags:
        for k in ("src", "href", "action", "srcset", "poster", "data"):
            if k in a:
                probs.append("<%s %s=%r>: the page must load nothing" %
                             (t, k, a[k]))
    if re.search(r"@import|url\(", raw, re.I):
        probs.append("@import or url( in the page")
    if re.search(r"(src|href)\s*=\s*[\"']?https?:", raw, re.I):
        probs.append("a link to the network")
    if p.json_text is None:
        probs.append("no JSON block")
    else:
        if "</" in p.json_text:
            probs.append("</ inside the JSON block")
        try:
            if comparable(json.loads(p.json_text)) != comparable(want):
                probs.append("the JSON block differs from --json")
        except ValueError as e:
            probs.append("the JSON block does not parse: %s" % e)
    return probs


def check_text(path, json_path):
    _, p = parse(path)
    with open(json_path, encoding="utf-8") as f:
        want = json.load(f)
    text = norm(" ".join(p.text))
    return ["%s not on the page: %s" % (k, v) for k, v in wanted(want)
            if norm(v) not in text]


WRAP_SCRIPT = """
window.addEventListener("load", function () {
  var out = [], frames = document.querySelectorAll("iframe");
  for (var i = 0; i < frames.length; i++) {
    var d = frames[i].contentDocument, r = d.querySelector(".cudawiz-report");
    out.push(frames[i].width + " " + d.documentElement.scrollWidth + " " +
      d.documentElement.clientWidth + " " + r.getBoundingClientRect().width +
      " " + getComputedStyle(r).backgroundColor.replace(/ /g, ""));
  }
  document.getElementById("measured").textContent = out.join("\\n");
  document.getElementById("rendered").textContent =
    frames[0].contentDocument.body.innerText;
});
"""


def wrap(page, widths, height):
    with open(page, encoding="utf-8") as f:
        doc = html.escape(f.read(), quote=True)
    frames = "".join('<iframe width="%s" height="%s" style="border:0;'
                     'display:block" srcdoc="%s"></iframe>' % (w, height, doc)
                     for w in widths.split(","))
    return ('<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
            '<body style="margin:0">%s<pre id="measured"></pre>'
            '<pre id="rendered"></pre><script>%s</script></body></html>\n'
            % (frames, WRAP_SCRIPT))


def measured(dom):
    with open(dom, encoding="utf-8") as f:
        m = re.search(r'<pre id="measured">(.*?)</pre>', f.read(), re.S)
    return m.group(1).strip() if m else ""


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "wrap":
        sys.stdout.write(wrap(*sys.argv[2:]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "measured":
        print(measured(sys.argv[2]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "json":
        _, p = parse(sys.argv[2])
        sys.stdout.write(p.json_text or "")
        return 0
    if len(sys.argv) != 4 or sys.argv[1] not in ("page", "text"):
        print(__doc__, file=sys.stderr)
        return 2
    check = check_page if sys.argv[1] == "page" else check_text
    probs = check(sys.argv[2], sys.argv[3])
    for line in probs:
        print(line)
    return 1 if probs else 0


if __name__ == "__main__":
    sys.exit(main())
