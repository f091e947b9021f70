/* chemie show: draws each relation as an SVG arc from the anaphor to the antecedent (arrow
   on the antecedent). An arc whose ends are on one line rises above it, stacked in levels
   with the others there; each line gets just the room its arcs need. An arc whose ends are
   on different lines rises above the anaphor's line, runs to the nearer side of the pane,
   follows a lane of that side's inner margin (padding kept free of text for it) to the
   antecedent's line and enters it from the same side: every arc is one continuous line
   inside its pane (brat draws such an arc as pieces ending at the row's edge, one per row).
   Also links the pieces of discontinuous mentions and highlights mentions and arcs
   together on hover; switches a page with reaction roles between its two views. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var BASE = 7;       // px from the top of the text to the lowest arc
  var STEP = 11;      // px between arc levels
  var LABEL = 11;     // px above an arc for its label
  var MAX_LEVEL = 12;
  var LANE = 5;       // px between the lanes of a margin
  var MAX_LANES = 8;  // lanes reserved per margin; more arcs share them
  var GAP = 4;        // px between the text and the innermost lane
  var EDGE = 3;       // px between the outermost lane and the pane's edge
  var RADIUS = 4;     // px, rounded corners
  var PREFIX = { fp: "FP\u00b7", fn: "FN\u00b7" };
  var STATUS = { tp: "correct", fp: "false positive", fn: "false negative" };
  var canvas = document.createElement("canvas").getContext("2d");

  function svg(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function fragments(box) {
    var byId = {};
    box.querySelectorAll("[data-m]").forEach(function (el) {
      var id = el.getAttribute("data-m");
      (byId[id] = byId[id] || []).push(el);
    });
    return byId;
  }

  // Geometry of the first line box of an element, relative to the container.
  function rectOf(el, origin) {
    var r = el.getClientRects()[0] || el.getBoundingClientRect();
    return { left: r.left - origin.left, right: r.right - origin.left,
             top: r.top - origin.top, bottom: r.bottom - origin.top,
             x: (r.left + r.right) / 2 - origin.left };
  }

  // Lanes for the arcs routed along one margin: arcs whose rows overlap get different
  // lanes, the shortest arcs the lanes nearest the text. Returns the number of lanes.
  function assignLanes(list) {
    var used = [];
    list.sort(function (p, q) { return (p.r1 - p.r0) - (q.r1 - q.r0) || p.r0 - q.r0; });
    list.forEach(function (it) {
      var lane = 0;
      while ((used[lane] || []).some(function (s) { return s[0] <= it.r1 && it.r0 <= s[1]; })) {
        lane += 1;
      }
      (used[lane] = used[lane] || []).push([it.r0, it.r1]);
      it.lane = lane;
    });
    return used.length;
  }

  var range = document.createRange();

  function rectsOf(node, a, b) {
    range.setStart(node, a);
    range.setEnd(node, b);
    return Array.prototype.filter.call(range.getClientRects(), function (r) {
      return r.height > 0;
    });
  }

  function textNodes(box) {
    var walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT, null);
    var out = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.nodeValue.length) { out.push(n); }
    }
    return out;
  }

  // The lines of a box: the vertical centres of its text, top to bottom (relative to the
  // box), for each text node the centres of its pieces, and the height of the text.
  function linesOf(nodes, origin) {
    var centres = [];
    var height = 0;
    var perNode = nodes.map(function (n) {
      return rectsOf(n, 0, n.nodeValue.length).map(function (r) {
        var c = (r.top + r.bottom) / 2 - origin.top;
        centres.push(c);
        height = Math.max(height, r.height);
        return c;
      });
    });
    centres.sort(function (a, b) { return a - b; });
    var rows = [];
    centres.forEach(function (c) {
      if (!rows.length || c - rows[rows.length - 1] > 3) { rows.push(c); }
    });
    return { rows: rows, perNode: perNode, height: height };
  }

  // Index of the line nearest to the vertical position y.
  function lineAt(rows, y) {
    var lo = 0, hi = rows.length - 1;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (rows[mid + 1] <= y) { lo = mid + 1; } else if (rows[mid] >= y) { hi = mid; } else {
        return y - rows[mid] < rows[mid + 1] - y ? mid : mid + 1;
      }
    }
    return lo;
  }

  // Where each line starts in the text: line -> [text node, offset].
  function lineStarts(m, origin) {
    var starts = {};
    m.nodes.forEach(function (n, k) {
      m.lines.perNode[k].forEach(function (c, j) {
        var row = lineAt(m.lines.rows, c);
        if (starts[row]) { return; }
        var off = 0;
        if (j > 0) {  // the line starts inside this node: its first character there
          var lo = 1, hi = n.nodeValue.length - 1;
          while (lo < hi) {
            var mid = (lo + hi) >> 1;
            var r = rectsOf(n, mid, mid + 1)[0];
            var at = r ? lineAt(m.lines.rows, (r.top + r.bottom) / 2 - origin.top) : -1;
            if (at >= row) { hi = mid; } else { lo = mid + 1; }
          }
          off = lo;
        }
        starts[row] = [n, off];
      });
    });
    return starts;
  }

  function measure(box, arcs, frags) {
    var origin = box.getBoundingClientRect();
    var cs = getComputedStyle(box);
    var padL = parseFloat(cs.paddingLeft) || 0, padR = parseFloat(cs.paddingRight) || 0;
    var width = box.clientWidth;
    var nodes = textNodes(box);
    var lines = linesOf(nodes, origin);
    var rowOf = function (r) { return lineAt(lines.rows, (r.top + r.bottom) / 2); };
    var rowTop = {};
    Object.keys(frags).forEach(function (id) {
      frags[id].forEach(function (el) {
        var r = rectOf(el, origin);
        var row = rowOf(r);
        rowTop[row] = Math.min(rowTop[row] === undefined ? r.top : rowTop[row], r.top);
      });
    });
    var placed = {};  // row -> [{a, b, level}]
    function place(row, a, b) {
      var list = placed[row] = placed[row] || [];
      var level = 1;
      while (list.some(function (s) { return s.level === level && s.a < b + 4 && a < s.b + 4; })) {
        level += 1;
      }
      level = Math.min(level, MAX_LEVEL);
      list.push({ a: a, b: b, level: level });
      return level;
    }
    var items = [];
    var sides = { L: [], R: [] };
    arcs.forEach(function (arc) {
      if (!frags[arc.head] || !frags[arc.tail]) { return; }
      var h = rectOf(frags[arc.head][0], origin);
      var t = rectOf(frags[arc.tail][0], origin);
      var it = { arc: arc, h: h, t: t, hr: rowOf(h), tr: rowOf(t) };
      if (it.hr === it.tr) {
        it.extent = Math.abs(h.x - t.x);
      } else {
        // the nearer margin for both ends
        it.side = h.x + t.x < 2 * width - h.x - t.x ? "L" : "R";
        it.r0 = Math.min(it.hr, it.tr);
        it.r1 = Math.max(it.hr, it.tr);
        it.extent = it.side === "L" ? Math.max(h.x, t.x) : width - Math.min(h.x, t.x);
        sides[it.side].push(it);
      }
      items.push(it);
    });
    // narrow arcs first so that wider ones stack above them
    items.sort(function (p, q) { return p.extent - q.extent || p.h.x - q.h.x; });
    var need = {};  // row -> px above its text for the arcs over it
    function reserve(row, level, labelled) {
      need[row] = Math.max(need[row] || 0, room(level, labelled));
    }
    items.forEach(function (it) {
      if (it.hr === it.tr) {
        it.level = place(it.hr, Math.min(it.h.x, it.t.x), Math.max(it.h.x, it.t.x));
        it.hLevel = it.tLevel = it.level;
      } else {
        var left = it.side === "L";
        it.hLevel = place(it.hr, left ? 0 : it.h.x, left ? it.h.x : width);
        it.tLevel = place(it.tr, left ? 0 : it.t.x, left ? it.t.x : width);
      }
      reserve(it.hr, it.hLevel, true);  // the label is on the anaphor's line
      reserve(it.tr, it.tLevel, it.hr === it.tr);
    });
    var lanes = { L: assignLanes(sides.L), R: assignLanes(sides.R) };
    // dotted links between consecutive pieces of discontinuous mentions (same row only)
    var links = [];
    Object.keys(frags).forEach(function (id) {
      var list = frags[id];
      for (var i = 1; i < list.length; i++) {
        var p = list[i - 1], q = list[i];
        if (p.getAttribute("data-p") === q.getAttribute("data-p")) { continue; }
        var a = rectOf(p, origin), b = rectOf(q, origin);
        if (rowOf(a) === rowOf(b)) { links.push({ id: id, a: a, b: b }); }
      }
    });
    return { items: items, rowTop: rowTop, need: need, text: lines.height, width: width,
             links: links, lanes: lanes, padL: padL, padR: padR, font: cs.fontFamily,
             nodes: nodes, lines: lines, origin: origin,
             svgWidth: width, svgHeight: box.scrollHeight };
  }

  // Room above a line for an arc at ``level`` (with its label, if it has one there).
  function room(level, labelled) {
    return BASE + (level - 1) * STEP + (labelled ? LABEL : 2);
  }

  // Width of a margin holding ``lanes`` lanes.
  function margin(lanes) {
    return lanes > 0 ? GAP + (Math.min(lanes, MAX_LANES) - 1) * LANE + EDGE + 1 : 0;
  }

  // x of a lane: lanes are spread over the margin the pane has (squeezed, or shared
  // when there are more than fit), never beyond EDGE px from the pane's edge.
  function laneX(m, side, lane) {
    var n = m.lanes[side];
    var space = (side === "L" ? m.padL : m.padR) - GAP - EDGE;
    var offset;
    if (space <= 0) {
      offset = Math.max(0, space + GAP + EDGE) / 2;
    } else {
      var spacing = n > 1 ? Math.min(LANE, space / (n - 1)) : 0;
      if (n > 1 && spacing < 2) {
        spacing = 2;
        lane = lane % (Math.floor(space / 2) + 1);
      }
      offset = GAP + lane * spacing;
    }
    return side === "L" ? m.padL - offset : m.width - m.padR + offset;
  }

  function apex(m, row, level) {
    var top = m.rowTop[row] === undefined ? 0 : m.rowTop[row];
    return top - BASE - (level - 1) * STEP;
  }

  function num(v) { return String(Math.round(v * 10) / 10); }

  // An orthogonal path through ``pts`` with rounded corners.
  function route(pts) {
    var d = "M" + num(pts[0][0]) + "," + num(pts[0][1]);
    for (var i = 1; i < pts.length; i++) {
      var q = pts[i];
      if (i === pts.length - 1) { d += " L" + num(q[0]) + "," + num(q[1]); break; }
      var p = pts[i - 1], n = pts[i + 1];
      var lp = Math.abs(q[0] - p[0]) + Math.abs(q[1] - p[1]);
      var ln = Math.abs(n[0] - q[0]) + Math.abs(n[1] - q[1]);
      var r = Math.min(RADIUS, lp / 2, ln / 2);
      var a = [q[0] - Math.sign(q[0] - p[0]) * r, q[1] - Math.sign(q[1] - p[1]) * r];
      var b = [q[0] + Math.sign(n[0] - q[0]) * r, q[1] + Math.sign(n[1] - q[1]) * r];
      d += " L" + num(a[0]) + "," + num(a[1]) + " Q" + num(q[0]) + "," + num(q[1]) + " " +
        num(b[0]) + "," + num(b[1]);
    }
    return d;
  }

  function arrow(g, x, y) {
    svg("path", { "class": "head", d: "M" + num(x - 3.5) + "," + num(y - 6) + " L" +
      num(x + 3.5) + "," + num(y - 6) + " L" + num(x) + "," + num(y) + " Z" }, g);
  }

  function draw(box, m) {
    var layer = svg("svg", { "class": "arcs", width: m.svgWidth, height: m.svgHeight });
    m.items.forEach(function (it) {
      var arc = it.arc;
      var cls = "arc " + arc.cls + (arc.status ? " st-" + arc.status : "");
      var g = svg("g", { "class": cls, "data-rel": arc.id, "data-head": arc.head,
                         "data-tail": arc.tail }, layer);
      var title = svg("title", {}, g);
      title.textContent = arc.label + " " + arc.id + ": " + arc.head + " \u2192 " + arc.tail +
        "\nrule: " + (arc.rule || "-") + (arc.status ? "\n" + STATUS[arc.status] : "");
      var hy = it.h.top, ty = it.t.top - 1;
      var yh = apex(m, it.hr, it.hLevel), yt = apex(m, it.tr, it.tLevel);
      var pts, mid;
      if (it.hr === it.tr) {
        pts = [[it.h.x, hy], [it.h.x, yh], [it.t.x, yh], [it.t.x, ty - 6]];
        mid = (it.h.x + it.t.x) / 2;
      } else {
        var x = laneX(m, it.side, it.lane);
        pts = [[it.h.x, hy], [it.h.x, yh], [x, yh], [x, yt], [it.t.x, yt], [it.t.x, ty - 6]];
        mid = (it.h.x + x) / 2;
      }
      var d = route(pts);
      svg("path", { "class": "hit", d: d }, g);
      svg("path", { "class": "line", d: d }, g);
      arrow(g, it.t.x, ty);
      var text = (PREFIX[arc.status] || "") + arc.short;
      canvas.font = (arc.status === "fp" || arc.status === "fn" ? "600 " : "") + "10px " + m.font;
      var half = canvas.measureText(text).width / 2 + 2;
      var lx = Math.max(half, Math.min(m.width - half, mid));
      var label = svg("text", { x: num(lx), y: num(yh - 2), "text-anchor": "middle" }, g);
      label.textContent = text;
    });
    m.links.forEach(function (link) {
      var a = link.a, b = link.b, yb = Math.max(a.bottom, b.bottom);
      svg("path", { "class": "disc-link", "data-m": link.id, d: "M" + num(a.right) + "," +
        num(yb) + " Q" + num((a.right + b.left) / 2) + "," + num(yb + 7) + " " + num(b.left) +
        "," + num(yb) }, layer);
    });
    box.appendChild(layer);
    box.setAttribute("data-drawn", String(m.items.length));
  }

  // Room above a line: an invisible inline block (``span.strut``, bottom on the text's
  // bottom) as tall as the text plus the arcs stacked above that line, kept with the
  // line's first character (``span.sw``, no wrap) so that lines wrap as before.
  function addStrut(node, off, height) {
    var code = node.nodeValue.charCodeAt(off);
    var target = off > 0 ? node.splitText(off) : node;
    var len = code >= 0xD800 && code <= 0xDBFF ? 2 : 1;
    if (target.nodeValue.length > len) { target.splitText(len); }
    var wrap = document.createElement("span");
    wrap.className = "sw";
    var strut = document.createElement("span");
    strut.className = "strut";
    strut.style.height = height + "px";
    target.parentNode.insertBefore(wrap, target);
    wrap.appendChild(strut);
    wrap.appendChild(target);
  }

  function removeStruts(box) {
    var wraps = box.querySelectorAll("span.sw");
    wraps.forEach(function (w) {
      var strut = w.querySelector(".strut");
      if (strut) { strut.remove(); }
      while (w.firstChild) { w.parentNode.insertBefore(w.firstChild, w); }
      w.remove();
    });
    if (wraps.length) { box.normalize(); }
  }

  // Lay out every text in batches (all reads, then all writes) so that the browser
  // computes the page layout a fixed number of times, however many documents there are:
  // 1. where the arcs go without margins: the margins their lanes need;
  // 2. the lines as wrapped within those margins: the room above each line (and a margin
  //    for a side that only now has arcs, then the lines once more);
  // 3. the final positions, then the arcs are drawn.
  function layoutAll(boxes) {
    var jobs = boxes.map(function (box) {
      var old = box.querySelector("svg.arcs");
      if (old) { old.remove(); }
      removeStruts(box);
      box.style.paddingLeft = "";
      box.style.paddingRight = "";
      return { box: box, arcs: JSON.parse(box.getAttribute("data-arcs") || "[]"),
               frags: fragments(box) };
    });
    jobs.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
    var drawn = jobs.filter(function (j) { return j.m.items.length > 0; });
    drawn.forEach(function (j) {
      j.box.style.paddingLeft = margin(j.m.lanes.L) + "px";
      j.box.style.paddingRight = margin(j.m.lanes.R) + "px";
    });
    drawn.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
    // rewrapped lines may send an arc to a side without a margin yet: give it one
    var bare = drawn.filter(function (j) {
      return (j.m.lanes.L && !j.m.padL) || (j.m.lanes.R && !j.m.padR);
    });
    bare.forEach(function (j) {
      j.box.style.paddingLeft = Math.max(j.m.padL, margin(j.m.lanes.L)) + "px";
      j.box.style.paddingRight = Math.max(j.m.padR, margin(j.m.lanes.R)) + "px";
    });
    bare.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
    drawn.forEach(function (j) { j.starts = lineStarts(j.m, j.m.origin); });
    drawn.forEach(function (j) {
      Object.keys(j.m.need).map(Number).sort(function (a, b) { return b - a; })
        .forEach(function (row) {
          var at = j.starts[row];
          if (at) { addStrut(at[0], at[1], j.m.text + 2 + j.m.need[row]); }
        });
    });
    drawn.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
    jobs.forEach(function (j) { draw(j.box, j.m); });
  }

  function hover(box) {
    function set(el, on) {
      var g = el.closest ? el.closest("g.arc") : null;
      var ids = [];
      if (g) {
        ids = [g.getAttribute("data-head"), g.getAttribute("data-tail")];
        g.classList.toggle("hl", on);
      } else if (el.closest && el.closest("[data-m]")) {
        var mid = el.closest("[data-m]").getAttribute("data-m");
        ids = [mid];
        box.querySelectorAll("g.arc").forEach(function (a) {
          if (a.getAttribute("data-head") === mid || a.getAttribute("data-tail") === mid) {
            a.classList.toggle("hl", on);
          }
        });
      }
      box.querySelectorAll("[data-m]").forEach(function (f) {
        if (ids.indexOf(f.getAttribute("data-m")) >= 0 && f.tagName === "SPAN") {
          f.classList.toggle("hl", on);
        }
      });
    }
    box.addEventListener("mouseover", function (e) { set(e.target, true); });
    box.addEventListener("mouseout", function (e) { set(e.target, false); });
  }

  // The first texts are drawn at once; the others when they come near the viewport (a
  // page with hundreds of documents stays quick to open).
  var FIRST = 12;
  var boxes = Array.prototype.slice.call(document.querySelectorAll(".text[data-arcs]"));
  var observer = null;
  var pending = [];
  var scheduled = false;

  function flush() {
    scheduled = false;
    var batch = pending;
    pending = [];
    layoutAll(batch);
  }

  if ("IntersectionObserver" in window) {
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) {
          observer.unobserve(e.target);
          pending.push(e.target);
        }
      });
      if (pending.length && !scheduled) {
        scheduled = true;
        requestAnimationFrame(flush);
      }
    }, { rootMargin: "800px 0px" });
  }

  function start() {
    if (observer) {
      boxes.forEach(function (b) { observer.unobserve(b); });
      pending = [];
      layoutAll(boxes.slice(0, FIRST));
      boxes.slice(FIRST).forEach(function (b) { observer.observe(b); });
    } else {
      layoutAll(boxes);
    }
    document.body.setAttribute("data-arcs", "drawn");
  }

  // The view switch of a page with reaction roles: mentions and links, or the roles. Arcs
  // are laid out again when their texts are shown (hidden, they have no geometry).
  function view() { return document.body.getAttribute("data-view") || "anaphora"; }
  document.querySelectorAll('input[name="view"]').forEach(function (input) {
    if (input.checked) { document.body.setAttribute("data-view", input.value); }
    input.addEventListener("change", function () {
      if (!input.checked) { return; }
      document.body.setAttribute("data-view", input.value);
      if (input.value === "anaphora") { start(); }
    });
  });

  // In the roles view, a role and what it acts on (a trigger's arguments) light up together.
  document.querySelectorAll(".text.roles").forEach(function (box) {
    function set(e, on) {
      var el = e.target.closest ? e.target.closest("[data-r]") : null;
      if (!el) { return; }
      var ids = [el.getAttribute("data-r")].concat(
        (el.getAttribute("data-args") || "").split(" "));
      box.querySelectorAll("[data-r]").forEach(function (s) {
        if (ids.indexOf(s.getAttribute("data-r")) >= 0) { s.classList.toggle("hl", on); }
      });
    }
    box.addEventListener("mouseover", function (e) { set(e, true); });
    box.addEventListener("mouseout", function (e) { set(e, false); });
  });

  boxes.forEach(hover);
  if (view() === "anaphora") { start(); }
  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { if (view() === "anaphora") { start(); } }, 150);
  });
}());
