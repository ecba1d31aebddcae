
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("fx-data").textContent);
  var N = D.nodes, tip = document.getElementById("fx-tip");
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) {
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]; }); }
  function fmt(v) {
    if (v === null || v === undefined) return "–";
    if (v === "inf") return "∞"; if (v === "-inf") return "−∞";
    if (Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3)) return v.toExponential(2);
    return String(Number(v.toPrecision(4)));
  }
  function num(v) { return v === "inf" ? Infinity : v === "-inf" ? -Infinity : v; }
  function label(i) { return N.kind[i] === 3 ? "text" : N.label[i]; }
  function verdict(view, i) {
    return view.keep[i] ? '<span class="kept">KEPT</span>' : '<span class="dropped">DROPPED</span>';
  }
  function info(v, i, full) {
    var view = D.views[v], h = "<b>" + esc(label(i)) + "</b> · node " + i + " · " + verdict(view, i);
    h += " <span style='opacity:.7'>(" + esc(view.method) + ")</span><table>";
    view.scores.forEach(function (s, k) {
      var x = s[1][i]; if (x === null) return;
      var cmp = "";
      if (k === 0 && view.threshold !== null) cmp = num(x) >= view.threshold ? " ≥ " + fmt(view.threshold) : " < " + fmt(view.threshold);
      h += "<tr><td>" + esc(s[0]) + "</td><td><b>" + fmt(x) + "</b>" + cmp + "</td></tr>";
    });
    h += "<tr><td>chars</td><td>" + N.chars[i] + "</td></tr><tr><td>link density</td><td>" + fmt(N.ld[i]) +
         "</td></tr><tr><td>punctuation</td><td>" + N.punct[i] + "</td></tr><tr><td>tags</td><td>" + N.tags[i] + "</td></tr></table>";
    if (view.reason) {
      var c = view.cause[i], t = view.reasons[view.reason[i]] || "";
      t = esc(t).replace("{cause}", c >= 0 ? "<b>" + esc(label(c)) + "</b> (node " + c + ")" : "an ancestor");
      h += "<div class='why'>" + t + "</div>";
    } else if (!view.explained) {
      h += "<div class='why'>" + esc(view.method) + " does not explain its choices (no explain())</div>";
    }
    if (full && D.views.length > 1) {
      D.views.forEach(function (o, w) { if (w !== v) {
        var s = o.scores[0], x = s ? s[1][i] : null;
        h += "<div class='other'>" + esc(o.method) + ": " + verdict(o, i) + (s && x !== null ? " · " + esc(s[0]) + " " + fmt(x) : "") + "</div>";
      }});
    }
    return h;
  }
  var hl = [];
  function highlight(i) {
    hl.forEach(function (e) { e.classList.remove("fx-hl"); }); hl = [];
    if (i === null) return;
    document.querySelectorAll('.fx-page [data-fx="' + i + '"], .fx-plot [data-node="' + i + '"]').forEach(function (e) {
      e.classList.add("fx-hl"); hl.push(e); });
  }
  function nodeOf(t) {
    var el = t.closest ? t.closest(".fx-page [data-fx]") : null;
    if (el) { var blk = el.closest(".fx-blk"); if (blk && blk.closest(".fx-page") === el.closest(".fx-page")) el = blk; return +el.getAttribute("data-fx"); }
    var pt = t.closest ? t.closest("[data-node]") : null;
    return pt ? +pt.getAttribute("data-node") : null;
  }
  function viewOf(t) { var s = t.closest ? t.closest(".fx-view") : null; return s ? +s.getAttribute("data-view") : null; }
  var current = null;
  document.addEventListener("mouseover", function (e) {
    var i = nodeOf(e.target), v = viewOf(e.target);
    if (i === null || v === null || (e.target.closest && e.target.closest(".fx-inspect"))) { tip.hidden = true; highlight(null); current = null; return; }
    if (current === v + ":" + i) return;
    current = v + ":" + i;
    highlight(i);
    tip.innerHTML = info(v, i, true); tip.hidden = false;
    var box = document.querySelector('.fx-view[data-view="' + v + '"] .fx-inspect');
    if (box) { box.innerHTML = info(v, i, false); box.removeAttribute("data-empty"); }
  });
  document.addEventListener("mousemove", function (e) {
    if (tip.hidden) return;
    var w = tip.offsetWidth, h = tip.offsetHeight, x = e.clientX + 16, y = e.clientY + 16;
    if (x + w > innerWidth - 4) x = e.clientX - w - 12;
    if (y + h > innerHeight - 4) y = Math.max(4, e.clientY - h - 12);
    tip.style.left = x + "px"; tip.style.top = y + "px";
  });
  document.addEventListener("click", function (e) {
    var pt = e.target.closest ? e.target.closest("[data-node]") : null;
    if (!pt) return;
    e.preventDefault();
    var i = pt.getAttribute("data-node");
    document.querySelectorAll('.fx-page [data-fx="' + i + '"]').forEach(function (el) {
      el.scrollIntoView({block: "center"}); el.classList.remove("fx-flash"); void el.offsetWidth; el.classList.add("fx-flash"); });
  });
  function scrollPageTo(page, el) {
    page.scrollTop += el.getBoundingClientRect().top - page.getBoundingClientRect().top - 48;
  }
  document.querySelectorAll(".fx-next").forEach(function (a) {
    var page = a.closest(".fx-view").querySelector(".fx-page"), k = 0;
    a.addEventListener("click", function (e) {
      e.preventDefault();
      var roots = page.querySelectorAll(".fx-root");
      if (!roots.length) return;
      k = (k + 1) % roots.length; scrollPageTo(page, roots[k]);
      roots[k].classList.remove("fx-flash"); void roots[k].offsetWidth; roots[k].classList.add("fx-flash");
    });
  });
  // open each page at its first kept block
  document.querySelectorAll(".fx-page").forEach(function (page) {
    var first = page.querySelector(".fx-root"); if (first) scrollPageTo(page, first);
  });
  // what the browser drew, for tests and the curious: points and threshold lines with a box
  document.querySelectorAll("svg.fx-plot").forEach(function (svg) {
    var drawn = 0;
    svg.querySelectorAll(".fx-pt").forEach(function (p) { var r = p.getBoundingClientRect(); if (r.width > 0 && r.height > 0) drawn++; });
    svg.setAttribute("data-drawn", drawn);
    var rule = svg.querySelector(".fx-threshold"), rb = rule ? rule.getBoundingClientRect() : null;
    svg.setAttribute("data-threshold-drawn", rb && rb.width > 0 ? "1" : "0");
  });
  document.documentElement.setAttribute("data-fx-ready", "1");
})();
