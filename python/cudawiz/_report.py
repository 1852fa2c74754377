"""A report: one page from `cudawiz ... --format html`, read once.

The page frames its report between two comments, and inside them one
<div class="cudawiz-report"> holds the scoped style, the rendering and
the report's JSON in a <script type="application/json"
class="cudawiz-json"> block (docs: README, "--format html"). The
notebook shows the framed part as it is; the objects come from the JSON.
Nothing here renders: the binary's HTML presenter is the one view, so
the notebook, the browser and the CLI show the same thing.
"""

import json
import re

from ._binary import CudawizError

BEGIN = "<!-- cudawiz-report begin -->"
END = "<!-- cudawiz-report end -->"
_JSON_BLOCK = re.compile(
    r'<script\b[^>]*\bclass="cudawiz-json"[^>]*>(.*?)</script\s*>',
    re.DOTALL | re.IGNORECASE)

# The marks of the text report (src/present/text.c).
_MARK = {"error": "x", "warning": "!", "info": "i"}


def split_page(page):
    """(fragment, document) from a --format html page: the part between
    the markers and the parsed JSON block. ValueError says what is
    missing."""
    start = page.find(BEGIN)
    end = page.find(END, start + len(BEGIN)) if start >= 0 else -1
    if start < 0 or end < 0:
        raise ValueError("no '%s' ... '%s' frame in the page" % (BEGIN, END))
    fragment = page[start + len(BEGIN):end].strip()
    m = _JSON_BLOCK.search(fragment)
    if m is None:
        raise ValueError('no <script type="application/json" '
                         'class="cudawiz-json"> block in the report')
    # The page writes "</" as "<\/" so that the JSON cannot end its
    # script element; "\/" is a JSON escape of "/", so json reads it.
    try:
        doc = json.loads(m.group(1))
    except ValueError as e:
        raise ValueError("the report's JSON block does not parse: %s" % e)
    if not isinstance(doc, dict):
        raise ValueError("the report's JSON block is not an object")
    return fragment, doc


class Report:
    """What one run of cudawiz found.

    ``json`` is the whole document (the same as the command's --json),
    ``findings`` its list of findings (dicts with code, severity, title,
    subject, detail, evidence and fix), ``exit_status`` the binary's
    status (0: no error finding, 1: at least one) and ``ok`` whether it
    was 0. In Jupyter, Colab or VS Code the report shows itself as
    HTML; elsewhere repr() is a short text summary.
    """

    def __init__(self, command, page, exit_status, stderr=""):
        try:
            self._html, self.json = split_page(page)
        except ValueError as e:
            raise CudawizError(
                "cudawiz %s gave no report: %s (is the binary older than "
                "--format html?)" % (command, e), stderr, exit_status)
        self.command = command
        self.exit_status = exit_status
        self.stderr = stderr
        self.findings = list(self.json.get("findings") or [])

    @property
    def ok(self):
        return self.exit_status == 0

    def codes(self):
        """The findings' codes, in the report's order."""
        return [f.get("code") for f in self.findings]

    def counts(self):
        """{"error": N, "warning": N, "info": N} over the findings."""
        n = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            sev = f.get("severity")
            n[sev] = n.get(sev, 0) + 1
        return n

    def _repr_html_(self):
        return self._html

    def __repr__(self):
        n = self.counts()
        head = "cudawiz %s: " % self.command
        if not self.findings:
            head += "no findings"
        else:
            head += ", ".join(
                "%d %s" % (n[k], word if n[k] == 1 else word + "s")
                for k, word in (("error", "error"), ("warning", "warning"),
                                ("info", "note")) if n.get(k))
        lines = [head]
        for f in self.findings:
            line = "  %s %s: %s" % (_MARK.get(f.get("severity"), "?"),
                                    f.get("code"), f.get("title"))
            if f.get("subject"):
                line += " (%s)" % f["subject"]
            lines.append(line)
            for fix in f.get("fix") or []:
                lines.append("      $ %s" % fix)
        if self.command.startswith("why") and "resolved" in self.json:
            lines.append("  resolved: %s" % (self.json.get("resolved")
                                             or "not found"))
        return "\n".join(lines)

    __str__ = __repr__
