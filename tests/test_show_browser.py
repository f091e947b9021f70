"""chemie show in a real browser: headless Chromium runs page.js; arcs are drawn inside their
panes (checked from the DOM and from a screenshot).

Also: reaction schemes stay inside their panes; the roles view switch.

Skipped (with the reason) only when no Chromium/Chrome executable can be found. Set
CHEMIE_SCREENSHOT_DIR to keep the screenshot.
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.model import Document, Mention, Relation
from chemie.show.render import render_page

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def _browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(
        "no headless browser found (looked for " + ", ".join(BROWSERS) + "); "
        "install Debian's chromium package: apt-get install -y chromium"
    )


def _chromium(browser: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-extensions", f"--user-data-dir={profile}", *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def test_page_renders_arcs_in_headless_chromium(fixtures, tmp_path):
    browser = _browser()
    show = fixtures / "show"
    page = tmp_path / "page.html"
    argv = ["show", str(show / "pred"), "--gold", str(show / "gold.jsonl"), "-o", str(page)]
    assert main(argv) == 0
    url = page.resolve().as_uri()

    result = _chromium(browser, tmp_path / "profile1", "--dump-dom", url)
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    assert 'data-arcs="drawn"' in dom  # page.js ran to the end
    # one SVG arc group per relation: 4 predicted + 4 gold
    groups = re.findall(r'<g class="arc ([^"]*)"', dom)
    assert len(groups) == 8
    assert sum("st-fp" in g for g in groups) == 1 and sum("st-fn" in g for g in groups) == 1
    assert re.findall(r'data-drawn="(\d+)"', dom) == ["4", "4"]
    paths = re.findall(r'<path class="line" d="([^"]+)"', dom)
    assert len(paths) == 8 and not any("NaN" in d or "undefined" in d for d in paths)
    # arcs carry the rule name as a tooltip; discontinuous pieces are linked
    assert "rule: coref_mixture" in dom
    assert 'class="disc-link"' in dom

    shots = Path(os.environ.get("CHEMIE_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    png = shots / "chemie-show.png"
    result = _chromium(
        browser, tmp_path / "profile2", f"--screenshot={png}", "--window-size=1200,800", url
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- many links: every arc stays inside its pane ---------------------------------------------

# Hand-written procedure parts (no corpus text): long systematic names wrap inside half-width
# panes, and each step links back to the product of the step before (arcs across many lines).
NAMES = (
    "2-(3-bromophenyl)-4,6-bis(trifluoromethyl)-1,3,5-triazine",
    "tert-butyl 4-(5-chloro-2-methoxyphenyl)piperazine-1-carboxylate",
    "tetrakis(triphenylphosphine)palladium(0)",
    "(4-fluorophenyl)boronic acid",
    "N,N-diisopropylethylamine",
    "6-chloro-N-(2,2-dimethylpropyl)pyridazin-3-amine",
)
SOLVENTS = ("1,4-dioxane", "dichloromethane", "tetrahydrofuran")


class _Builder:
    """Text and mentions built piece by piece (``add`` records a mention's span)."""

    def __init__(self) -> None:
        self.text = ""
        self.mentions: list[Mention] = []

    def say(self, words: str) -> None:
        self.text += words

    def add(self, words: str, kind: str) -> str:
        mid = f"T{len(self.mentions) + 1}"
        start = len(self.text)
        self.text += words
        self.mentions.append(Mention(mid, ((start, len(self.text)),), "ENTITY", words,
                                     rule="test", kind=kind))
        return mid


def _many_links(steps: int = 5) -> Document:
    b = _Builder()
    rels: list[tuple[str, str, str]] = []
    product = None
    for k in range(steps):
        b.say(f"Step {k + 1}: ")
        a = b.add(NAMES[k % len(NAMES)], "chemical")
        b.say(f" ({k + 2}.0 mmol) and ")
        c = b.add(NAMES[(k + 3) % len(NAMES)], "chemical")
        b.say(" were dissolved in ")
        s = b.add(SOLVENTS[k % len(SOLVENTS)], "chemical")
        b.say(f" ({5 * k + 10} mL). ")
        mix = b.add("The mixture", "generic")
        b.say(" was stirred overnight, then ")
        d = b.add(NAMES[(k + 2) % len(NAMES)], "chemical")
        b.say(" was added. ")
        sol = b.add("The resulting solution", "generic")
        b.say(" was washed with ")
        w = b.add("water", "chemical")
        b.say(" and ")
        org = b.add("the organic layer", "generic")
        b.say(" was dried and concentrated to give ")
        prod = b.add("the product", "generic")
        b.say(" as a solid.\n")
        rels += [("REACTION_ASSOCIATED", mix, x) for x in (a, c, s)]
        rels += [("TRANSFORMED", sol, mix), ("REACTION_ASSOCIATED", sol, d),
                 ("WORK_UP", org, sol), ("WORK_UP", org, w), ("TRANSFORMED", prod, org)]
        if product is not None:
            rels.append(("COREFERENCE", a, product))  # back to the previous step
        product = prod
    doc = Document("many", b.text)
    doc.mentions = b.mentions
    doc.relations = [Relation(lab, h, t, rule="test", id=f"R{i + 1}")
                     for i, (lab, h, t) in enumerate(rels)]
    return doc


def _gold_of(pred: Document) -> Document:
    """The same text with every third relation dropped and two extra links (FN/FP arcs)."""
    gold = Document(pred.id, pred.text)
    gold.mentions = [Mention(m.id, m.spans, "ENTITY", m.text) for m in pred.mentions]
    kept = [r for i, r in enumerate(pred.relations) if i % 3]
    extra = [Relation("COREFERENCE", "T30", "T2", id="G1"),
             Relation("WORK_UP", "T40", "T5", id="G2")]
    gold.relations = [Relation(r.label, r.head, r.tail, id=r.id) for r in kept] + extra
    return gold


# Run after page.js: for every visible part of every arc, how far it stays inside its pane
# (left, right: the panel's sides; top: the panel heading's bottom; bottom: the text's bottom).
CHECK_JS = """<script>
(function () {
  var out = { panes: [], parts: [] };
  document.querySelectorAll(".panel").forEach(function (panel, i) {
    var box = panel.querySelector(".text[data-arcs]");
    var p = panel.getBoundingClientRect(), t = box.getBoundingClientRect();
    var top = panel.querySelector("h3").getBoundingClientRect().bottom;
    var first = document.createRange();
    first.selectNodeContents(box);
    var line = Array.prototype.filter.call(first.getClientRects(), function (r) {
      return r.height > 0;
    })[0];
    out.panes.push([p.left, p.right, top, t.bottom, line.top - top]);
    box.querySelectorAll("g.arc path.line, g.arc path.head, g.arc text").forEach(function (el) {
      var r = el.getBoundingClientRect();
      var cs = getComputedStyle(el);
      var w = cs.stroke === "none" ? 0 : parseFloat(cs.strokeWidth) / 2;
      if (el.tagName === "text") { w = 0; }
      out.parts.push({ pane: i, rel: el.parentNode.getAttribute("data-rel"),
        part: el.tagName + "." + (el.getAttribute("class") || ""),
        left: r.left - w - p.left, right: p.right - r.right - w,
        top: r.top - w - top, bottom: t.bottom - r.bottom - w });
    });
  });
  var pre = document.createElement("pre");
  pre.id = "arc-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}());
</script></body>"""


def _png_rows(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB(A) rows of an 8-bit non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + size]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytes(width * channels)
    for y in range(height):
        line = raw[y * (stride + 1) : (y + 1) * (stride + 1)]
        ftype, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if ftype == 1:
                cur[i] = (cur[i] + a) & 255
            elif ftype == 2:
                cur[i] = (cur[i] + b) & 255
            elif ftype == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(cur))
        prev = cur
    return width, height, [bytes(r[i] for i in range(len(r)) if i % channels < 3) for r in rows]


def test_arcs_of_many_links_stay_inside_their_panes(tmp_path):
    browser = _browser()
    pred = _many_links()
    assert len(pred.relations) >= 40
    page = tmp_path / "many.html"
    text = render_page([(pred, _gold_of(pred))], title="many links")
    page.write_text(text.replace("</body>", CHECK_JS, 1), encoding="utf-8")
    url = page.resolve().as_uri()
    window = ("--force-device-scale-factor=1", "--hide-scrollbars")

    size = "--window-size=1200,900"  # 1200 px wide: two panes of ~580 px
    result = _chromium(browser, tmp_path / "profile1", *window, size, "--dump-dom", url)
    assert result.returncode == 0, result.stderr[-2000:]
    found = re.search(r'<pre id="arc-check">([^<]*)</pre>', result.stdout)
    assert found, "the check script did not run"
    check = json.loads(html.unescape(found.group(1)))
    # side by side: two half-width panes, every relation drawn in each
    assert len(check["panes"]) == 2
    rels = [{p["rel"] for p in check["parts"] if p["pane"] == i} for i in (0, 1)]
    assert [len(r) for r in rels] == [len(pred.relations), len(_gold_of(pred).relations)]
    outside = [p for p in check["parts"] if min(p["left"], p["right"], p["top"], p["bottom"]) < 0]
    assert outside == [], f"{len(outside)} arc parts leave their pane, e.g. {outside[:3]}"
    # no empty band under a pane's heading: its first line or highest arc comes right after
    for i, pane in enumerate(check["panes"]):
        band = min([pane[4]] + [p["top"] for p in check["parts"] if p["pane"] == i])
        assert band < 20, f"{band:.0f} px empty above pane {i}'s text"

    # the screenshot agrees: nothing but background between and beside the panes
    shots = Path(os.environ.get("CHEMIE_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    png = shots / "chemie-show-many-links.png"
    (l0, r0, top, bottom, _), (l1, r1, _, bottom1, _) = check["panes"]
    size = f"--window-size=1200,{int(max(bottom, bottom1)) + 20}"  # the whole text
    result = _chromium(browser, tmp_path / "profile2", *window, size, f"--screenshot={png}", url)
    assert result.returncode == 0, result.stderr[-2000:]
    width, height, rows = _png_rows(png.read_bytes())
    assert r0 < l1 and bottom < height and bottom1 < height
    # beside each pane's text: 10 px to its outer side and the gap between the panes
    gap = (int(r0) + 1, int(l1))
    strips = [((int(l0) - 10, int(l0)), gap, bottom), (gap, (int(r1) + 1, int(r1) + 11), bottom1)]
    inked = [
        (x, y)
        for left, right, end in strips
        for y in range(int(top), int(end))
        for a, b in (left, right)
        for x in range(a, b)
        if min(rows[y][3 * x : 3 * x + 3]) < 235
    ]
    assert inked == [], f"{len(inked)} non-background pixels outside the panes, e.g. {inked[:5]}"


WIDTH_JS = """<script>
(function () {
  var widths = [];
  document.querySelectorAll(".text[data-arcs]").forEach(function (box) {
    var r = document.createRange();
    r.setStart(box, 0);
    r.setEndBefore(box.querySelector("svg.arcs"));  // the text, not the arcs' layer
    widths.push(r.getBoundingClientRect().width);
  });
  var pre = document.createElement("pre");
  pre.id = "widths";
  pre.textContent = JSON.stringify(widths);
  document.body.appendChild(pre);
}());
</script></body>"""


def test_mentions_cut_inside_a_word_do_not_widen_it(tmp_path):
    """Crossing mentions that start and end inside "thiourea" (one with a CHEMDNER class)
    take exactly the width of the bare text: no padding or class tag splits the word."""
    browser = _browser()
    text = "The thiourea salt was dried."
    marked = Document("marked", text)
    marked.mentions = [
        Mention("M1", ((0, 9),), "ENTITY", kind="generic", chemdner_class="TRIVIAL"),
        Mention("M2", ((6, 17),), "ENTITY", kind="chemical"),
        Mention("M3", ((4, 12),), "ENTITY", kind="chemical"),
    ]
    bare = Document("bare", text)
    page = tmp_path / "word.html"
    source = render_page([(marked, None), (bare, None)], title="word")
    page.write_text(source.replace("</body>", WIDTH_JS, 1), encoding="utf-8")
    result = _chromium(
        browser, tmp_path / "profile", "--window-size=900,600", "--dump-dom", page.as_uri()
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found = re.search(r'<pre id="widths">([^<]*)</pre>', result.stdout)
    assert found, "the measuring script did not run"
    with_mentions, without = json.loads(found.group(1))
    assert abs(with_mentions - without) < 0.5, (with_mentions, without)


# --- reaction schemes and the roles view --------------------------------------------------

SCHEME_JS = """<script>
(function () {
  function inside(el, box) {
    var r = el.getBoundingClientRect();
    return { left: r.left - box.left, right: box.right - r.right, w: r.width, h: r.height };
  }
  var out = { panes: [] };
  function measure() {
    var panes = [];
    document.querySelectorAll(".panel").forEach(function (panel) {
      var p = panel.getBoundingClientRect();
      var above = panel.querySelector(".above");
      var pane = { side: panel.className, schemes: 0, drawings: [], parts: [], overflow: 0 };
      if (above) {
        pane.overflow = above.scrollWidth - above.clientWidth;
        pane.schemes = above.querySelectorAll(".scheme").length;
        above.querySelectorAll(".mol svg").forEach(function (svg) {
          var r = svg.getBoundingClientRect();
          pane.drawings.push([r.width, r.height, svg.querySelectorAll("path").length]);
        });
        above.querySelectorAll(".scheme, .scheme *").forEach(function (el) {
          var m = inside(el, p);
          if (m.w > 0) { pane.parts.push([el.tagName + "." + (el.getAttribute("class") || ""),
                                          m.left, m.right]); }
        });
      }
      var roles = panel.querySelector(".text.roles");
      var arcs = panel.querySelector(".text[data-arcs]");
      pane.rolesShown = roles ? roles.offsetHeight > 0 : null;
      pane.arcsShown = arcs.offsetHeight > 0;
      pane.drawn = arcs.getAttribute("data-drawn");
      panes.push(pane);
    });
    return panes;
  }
  out.anaphora = measure();
  document.querySelector('input[name="view"][value="roles"]').click();
  out.roles = measure();
  out.view = document.body.getAttribute("data-view");
  document.querySelector('input[name="view"][value="anaphora"]').click();
  out.back = measure();
  var pre = document.createElement("pre");
  pre.id = "scheme-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}());
</script></body>"""

LONG = "x" * 90  # a name with no break point at all


def _scheme_document():
    from chemie.model import Role
    from chemie.model.reaction import Component, Reaction, Structure

    pred = _many_links(steps=2)
    smiles = {
        NAMES[0]: "FC(F)(F)c1nc(-c2cccc(Br)c2)nc(C(F)(F)F)n1",
        NAMES[1]: "COc1ccc(Cl)cc1N1CCN(C(=O)OC(C)(C)C)CC1",
        NAMES[3]: "OB(O)c1ccc(F)cc1",
        NAMES[4]: "CCN(C(C)C)C(C)C",
        "1,4-dioxane": "C1COCCO1",
    }

    def part(name, role):
        s = smiles.get(name)
        structure = Structure("opsin", s) if s else Structure("unresolved", reason="parse failure")
        return Component(name, role, "test", structure=structure)

    product = Component("the product", "product", "test",
                        structure=Structure("coreference", "Fc1ccc(-c2cccc(-c3nc(C(F)(F)F)nc"
                                            "(C(F)(F)F)n3)c2)cc1", via=NAMES[0]))
    reaction = Reaction(
        "many-1", "many", "test",
        products=[product],
        reactants=[part(NAMES[0], "reactant"), part(NAMES[3], "reactant"),
                   part(NAMES[1], "reactant")],
        reagents=[part(NAMES[2], "reagent"), part(NAMES[4], "reagent"), part(LONG, "reagent")],
        solvents=[part("1,4-dioxane", "solvent"), part("water", "solvent")],
    )
    pred.meta["reactions"] = [reaction, dataclasses.replace(reaction, id="many-2")]
    first = pred.mentions[0]
    pred.roles = [Role("T1", first.start, first.end, "STARTING_MATERIAL", first.text, "test"),
                  Role("T2", 0, 4, "REACTION_STEP", pred.text[:4], "test", ["T1"])]
    return pred


@pytest.mark.parametrize("width", [1200, 560])
def test_reaction_schemes_render_inside_their_panes(tmp_path, width):
    browser = _browser()
    pred = _scheme_document()
    page = tmp_path / "scheme.html"
    text = render_page([(pred, _gold_of(pred))], title="schemes")
    page.write_text(text.replace("</body>", SCHEME_JS, 1), encoding="utf-8")
    window = ("--force-device-scale-factor=1", "--hide-scrollbars", f"--window-size={width},900")
    result = _chromium(browser, tmp_path / "profile", *window, "--dump-dom", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    found = re.search(r'<pre id="scheme-check">([^<]*)</pre>', result.stdout)
    assert found, "the check script did not run"
    check = json.loads(html.unescape(found.group(1)))
    pred_pane, gold_pane = check["anaphora"]
    assert pred_pane["schemes"] == 2 and gold_pane["schemes"] == 0  # above the prediction
    # every structure drawn (5 resolved per reaction plus the product), none empty
    assert len(pred_pane["drawings"]) == 2 * 6
    assert all(w > 20 and h > 15 and paths > 0 for w, h, paths in pred_pane["drawings"])
    assert pred_pane["overflow"] <= 0, "the scheme scrolls sideways"
    outside = [p for p in pred_pane["parts"] if min(p[1], p[2]) < -0.5]
    assert outside == [], f"{len(outside)} parts of the schemes leave the pane: {outside[:3]}"
    # the roles view: the roles text instead of the arcs' text; back again, arcs redrawn
    roles_pred = check["roles"][0]
    assert check["view"] == "roles"
    assert roles_pred["rolesShown"] is True and roles_pred["arcsShown"] is False
    assert check["roles"][1]["arcsShown"] is True  # gold has no roles: it keeps its text
    back = check["back"][0]
    assert back["arcsShown"] is True and back["rolesShown"] is False
    assert int(back["drawn"]) == len(pred.relations)


# Run after page.js: the computed colours of the labelled mentions (mentions view) and of
# the roles (roles view), and the outlines of the roles marked against gold.
LABELS_JS = """<script>
(function () {
  function colours(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (el) {
      var cs = getComputedStyle(el);
      return [el.className, cs.backgroundColor, cs.outlineStyle, el.offsetParent !== null];
    });
  }
  var out = { mentions: colours(".panel.gold .text[data-arcs] .m"),
              legend: colours(".legend .lg-anaphora .m") };
  document.querySelector('input[name="view"][value="roles"]').click();
  out.roles = colours(".text.roles .r");
  out.roleLegend = colours(".legend .lg-roles .r");
  var pre = document.createElement("pre");
  pre.id = "label-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}());
</script></body>"""


def test_chemu2020_gold_labels_are_coloured_in_both_views(tmp_path):
    browser = _browser()
    text = ("Methyl benzoate\nBenzoic acid (1.2 g) was stirred in methanol (20 mL) at 65 °C "
            "for 3 h to give the title compound (1.1 g, 80%).")
    labels = [("REACTION_PRODUCT", "Methyl benzoate"), ("STARTING_MATERIAL", "Benzoic acid"),
              ("SOLVENT", "methanol"), ("TEMPERATURE", "65 °C"), ("TIME", "3 h"),
              ("YIELD_PERCENT", "80%"), ("REACTION_STEP", "stirred"), ("WORKUP", "give")]
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "one.txt").write_text(text, encoding="utf-8")
    lines = []
    for i, (label, word) in enumerate(labels, 1):
        a = text.index(word)
        lines.append(f"T{i}\t{label} {a} {a + len(word)}\t{word}\n")
    (gold / "one.ann").write_text("".join(lines), encoding="utf-8")
    page = tmp_path / "page.html"
    argv = ["show", str(gold / "one.txt"), "--gold", str(gold), "--no-structures",
            "-o", str(page)]
    assert main(argv) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", LABELS_JS, 1),
                    encoding="utf-8")
    result = _chromium(browser, tmp_path / "profile", "--dump-dom", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    found = re.search(r'<pre id="label-check">([^<]*)</pre>', result.stdout)
    assert found, "the check script did not run"
    check = json.loads(html.unescape(found.group(1)))
    grey = "rgb(236, 239, 241)"  # the default colour of a mention nothing styles
    assert len(check["mentions"]) == len(labels)
    assert all(bg != grey for _, bg, _, _ in check["mentions"]), check["mentions"]
    assert len({bg for _, bg, _, _ in check["mentions"]}) >= 6  # labels told apart
    kinds = [item for item in check["legend"] if " k-" in item[0]]
    assert kinds and all(visible and bg != grey for _, bg, _, visible in kinds)
    shown = [r for r in check["roles"] if r[3]]
    assert shown and all(bg not in (grey, "rgba(0, 0, 0, 0)") for _, bg, _, _ in shown)
    marked = {cls.split()[-1]: outline for cls, _, outline, _ in shown if "st-f" in cls}
    assert marked, "no role marked against gold"
    assert all(outline in ("solid", "dashed") for outline in marked.values())
    assert all(visible for _, _, _, visible in check["roleLegend"])
