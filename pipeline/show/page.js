/* chemie show: draws each relation as an SVG arc above the text, from the anaphor to the
   antecedent (arrow on the antecedent), stacking overlapping arcs in levels; links the
   pieces of discontinuous mentions; highlights mentions and arcs together on hover. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var BASE = 7;   // px from the top of the text to the lowest arc
  var STEP = 11;  // px between arc levels
  var LABEL = 9;  // px above the highest arc for its label
  var MAX_LEVEL = 12;
  var PREFIX = { fp: "FP\u00b7", fn: "FN\u00b7" };

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

  function measure(box, arcs, frags) {
    var origin = box.getBoundingClientRect();
    var lh = parseFloat(getComputedStyle(box).lineHeight) || 36;
    var pad = parseFloat(getComputedStyle(box).paddingTop) || 0;
    var rowOf = function (r) { return Math.floor(((r.top + r.bottom) / 2 - pad) / lh); };
    var rowTop = {};
    var height = 0;
    Object.keys(frags).forEach(function (id) {
      frags[id].forEach(function (el) {
        var r = rectOf(el, origin);
        var row = rowOf(r);
        rowTop[row] = Math.min(rowTop[row] === undefined ? r.top : rowTop[row], r.top);
        height = Math.max(height, r.bottom - r.top);
      });
    });
    var width = box.clientWidth;
    var placed = {};  // row -> [{a, b, level}]
    var segs = [];
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
    arcs.forEach(function (arc) {
      if (!frags[arc.head] || !frags[arc.tail]) { return; }
      var h = rectOf(frags[arc.head][0], origin);
      var t = rectOf(frags[arc.tail][0], origin);
      items.push({ arc: arc, h: h, t: t, hr: rowOf(h), tr: rowOf(t) });
    });
    // narrow arcs first so that wider ones stack above them
    items.forEach(function (it) {
      it.width = it.hr === it.tr ? Math.abs(it.h.x - it.t.x) : width + Math.abs(it.hr - it.tr);
    });
    items.sort(function (p, q) { return p.width - q.width || p.h.x - q.h.x; });
    var maxLevel = 0;
    items.forEach(function (it) {
      if (it.hr === it.tr) {
        it.level = place(it.hr, Math.min(it.h.x, it.t.x), Math.max(it.h.x, it.t.x));
        maxLevel = Math.max(maxLevel, it.level);
      } else {
        var back = it.tr < it.hr;  // antecedent on an earlier row
        it.hLevel = place(it.hr, back ? 0 : it.h.x, back ? it.h.x : width);
        it.tLevel = place(it.tr, back ? it.t.x : 0, back ? width : it.t.x);
        maxLevel = Math.max(maxLevel, it.hLevel, it.tLevel);
      }
      segs.push(it);
    });
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
    return { items: segs, rowTop: rowTop, rowOf: rowOf, maxLevel: maxLevel, height: height,
             width: width, lh: lh, links: links,
             svgWidth: box.scrollWidth, svgHeight: box.scrollHeight };
  }

  function apex(m, row, level) {
    var top = m.rowTop[row] === undefined ? 0 : m.rowTop[row];
    return top - BASE - (level - 1) * STEP;
  }

  function arrow(g, x, y) {
    svg("path", { "class": "head", d: "M" + (x - 3.5) + "," + (y - 6) + " L" + (x + 3.5) + "," +
      (y - 6) + " L" + x + "," + y + " Z" }, g);
  }

  function corner(x0, y0, xa, ya) {
    // vertical from (x0, y0) up to ya, rounded corner, then horizontal towards xa
    var s = xa >= x0 ? 1 : -1;
    var r = Math.min(4, Math.abs(xa - x0) / 2);
    return "M" + x0 + "," + y0 + " V" + (ya + r) + " Q" + x0 + "," + ya + " " + (x0 + s * r) +
      "," + ya + " H" + xa;
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
        "\nrule: " + (arc.rule || "-") +
        (arc.status ? "\n" + { tp: "correct", fp: "false positive", fn: "false negative" }[arc.status] : "");
      var d, lx, ly;
      var hy = it.h.top, ty = it.t.top - 1;
      if (it.hr === it.tr) {
        var y = apex(m, it.hr, it.level);
        lx = (it.h.x + it.t.x) / 2; ly = y;
        // one path: up from the anaphor, across, down to the antecedent
        var s = it.t.x >= it.h.x ? 1 : -1;
        var r = Math.min(4, Math.abs(it.t.x - it.h.x) / 2);
        d = "M" + it.h.x + "," + hy + " V" + (y + r) + " Q" + it.h.x + "," + y + " " +
          (it.h.x + s * r) + "," + y + " H" + (it.t.x - s * r) + " Q" + it.t.x + "," + y + " " +
          it.t.x + "," + (y + r) + " V" + (ty - 6);
      } else {
        var back = it.tr < it.hr;
        var yh = apex(m, it.hr, it.hLevel), yt = apex(m, it.tr, it.tLevel);
        var edgeH = back ? 0 : m.width, edgeT = back ? m.width : 0;
        d = corner(it.h.x, hy, edgeH, yh) + " M" + edgeT + "," + yt + " H" +
          (it.t.x + (back ? 4 : -4)) + " Q" + it.t.x + "," + yt + " " + it.t.x + "," + (yt + 4) +
          " V" + (ty - 6);
        lx = (it.h.x + edgeH) / 2; ly = yh;
      }
      svg("path", { "class": "hit", d: d }, g);
      svg("path", { "class": "line", d: d }, g);
      arrow(g, it.t.x, ty);
      var label = svg("text", { x: Math.max(lx, 30), y: ly - 2, "text-anchor": "middle" }, g);
      label.textContent = (PREFIX[arc.status] || "") + arc.short;
    });
    m.links.forEach(function (link) {
      var a = link.a, b = link.b, yb = Math.max(a.bottom, b.bottom);
      svg("path", { "class": "disc-link", "data-m": link.id, d: "M" + a.right + "," + yb + " Q" +
        (a.right + b.left) / 2 + "," + (yb + 7) + " " + b.left + "," + yb }, layer);
    });
    box.appendChild(layer);
    box.setAttribute("data-drawn", String(m.items.length));
  }

  // Lay out every text in batches (all reads, then all writes) so that the browser
  // computes the page layout a fixed number of times, however many documents there are.
  function layoutAll(boxes) {
    var jobs = boxes.map(function (box) {
      var old = box.querySelector("svg.arcs");
      if (old) { old.remove(); }
      box.style.lineHeight = "";
      box.style.paddingTop = "";
      return { box: box, arcs: JSON.parse(box.getAttribute("data-arcs") || "[]"),
               frags: fragments(box) };
    });
    jobs.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
    var grown = jobs.filter(function (j) { return j.m.maxLevel > 0; });
    grown.forEach(function (j) {
      // room above every row for the highest stack of arcs
      var need = BASE + (j.m.maxLevel - 1) * STEP + LABEL + 4;
      j.box.style.lineHeight = Math.max(j.m.lh, j.m.height + need) + "px";
      j.box.style.paddingTop = need + "px";
    });
    grown.forEach(function (j) { j.m = measure(j.box, j.arcs, j.frags); });
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

  boxes.forEach(hover);
  start();
  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(start, 150);
  });
}());
