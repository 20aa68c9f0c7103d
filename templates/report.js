/* Progressive enhancement only: the report is complete without this script.
   Adds sortable columns, a filter box on long tables, chart tooltips and
   the active-section highlight in the navigation. */
(function () {
  "use strict";

  function cellValue(td, numeric) {
    var v = td.getAttribute("data-v");
    if (numeric) {
      var n = parseFloat(v);
      return isNaN(n) ? -Infinity : n;
    }
    return (v || td.textContent || "").toLowerCase();
  }

  function sortTable(table, col, th) {
    var body = table.tBodies[0];
    var numeric = th.classList.contains("num");
    var desc = !th.classList.contains("sorted-desc");
    if (th.classList.contains("sorted-asc") || th.classList.contains("sorted-desc")) {
      desc = th.classList.contains("sorted-asc");
    } else {
      desc = numeric;
    }
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r._i = i; });
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[col], numeric), y = cellValue(b.cells[col], numeric);
      if (x < y) return desc ? 1 : -1;
      if (x > y) return desc ? -1 : 1;
      return a._i - b._i;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) {
      h.classList.remove("sorted-asc", "sorted-desc");
      h.removeAttribute("aria-sort");
    });
    th.classList.add(desc ? "sorted-desc" : "sorted-asc");
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
  }

  /* A tree table (rows in pre-order with data-depth): a twisty on each
     row with children folds its subtree; sorting would break the tree. */
  function enhanceTree(table) {
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    function depth(r) { return +r.getAttribute("data-depth"); }
    function refresh() {
      var cut = -1; /* depth of the folded row we are under, -1: none */
      rows.forEach(function (r) {
        if (cut >= 0 && depth(r) <= cut) cut = -1;
        r.classList.toggle("folded", cut >= 0);
        var b = r.querySelector("button.twisty");
        if (cut < 0 && b && b.getAttribute("aria-expanded") === "false") cut = depth(r);
      });
    }
    rows.forEach(function (r, i) {
      if (i + 1 >= rows.length || depth(rows[i + 1]) <= depth(r)) return;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "twisty";
      b.textContent = "\u25BE";
      b.setAttribute("aria-expanded", "true");
      b.setAttribute("aria-label", "Fold or unfold the submodules");
      b.addEventListener("click", function () {
        var open = b.getAttribute("aria-expanded") !== "true";
        b.setAttribute("aria-expanded", open ? "true" : "false");
        b.textContent = open ? "\u25BE" : "\u25B8";
        refresh();
      });
      r.cells[0].insertBefore(b, r.cells[0].firstChild);
    });
  }

  function enhanceTable(table) {
    var head = table.tHead && table.tHead.rows[0];
    if (!head) return;
    if (table.classList.contains("tree")) {
      enhanceTree(table);
      return;
    }
    Array.prototype.forEach.call(head.cells, function (th, col) {
      th.classList.add("sortable");
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortTable(table, col, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortTable(table, col, th); }
      });
    });
    var rows = table.tBodies[0].rows;
    if (rows.length < 8) return;
    var input = document.createElement("input");
    input.type = "search";
    input.className = "filter";
    input.placeholder = "Filter rows\u2026";
    input.setAttribute("aria-label", "Filter rows");
    input.addEventListener("input", function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(rows, function (r) {
        /* data-v holds the full name where the cell shows a short one */
        var text = r.textContent + " " + Array.prototype.map.call(r.cells,
          function (c) { return c.getAttribute("data-v") || ""; }).join(" ");
        r.hidden = q !== "" && text.toLowerCase().indexOf(q) < 0;
      });
    });
    var wrap = table.parentNode;
    wrap.parentNode.insertBefore(input, wrap);
  }

  function enhanceTooltips() {
    var tip = document.createElement("div");
    tip.className = "tip";
    tip.hidden = true;
    document.body.appendChild(tip);
    var groups = document.querySelectorAll("svg.chart g");
    Array.prototype.forEach.call(groups, function (g) {
      var t = g.querySelector(":scope > title");
      if (!t) return;
      g.setAttribute("data-tip", t.textContent);
      g.removeChild(t);
      g.addEventListener("mousemove", function (e) {
        tip.textContent = g.getAttribute("data-tip");
        tip.hidden = false;
        var x = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
        tip.style.left = x + "px";
        tip.style.top = (e.clientY + 14) + "px";
      });
      g.addEventListener("mouseleave", function () { tip.hidden = true; });
    });
  }

  // The navigation highlights the last place it links to whose top has
  // scrolled under the header: each section in a report of one job, each
  // job in a report of several (its in-job sections have no link).
  function enhanceNav() {
    var links = document.querySelectorAll("nav.toc a");
    var targets = Array.prototype.map.call(links, function (a) {
      return document.getElementById(a.getAttribute("href").slice(1));
    });
    var ticking = false;
    function update() {
      ticking = false;
      var current = 0;
      targets.forEach(function (t, i) {
        if (t && t.getBoundingClientRect().top <= 120) current = i;
      });
      Array.prototype.forEach.call(links, function (a, i) {
        a.classList.toggle("active", i === current);
      });
    }
    window.addEventListener("scroll", function () {
      if (!ticking) { ticking = true; window.requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }

  /* A table wider than its box names, above it, the columns that are off
     to the right: the scrollbar alone sits under the last row. */
  function markScrolling() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-wrap"), function (w) {
      var hint = w.previousElementSibling;
      if (!hint || !hint.classList.contains("scroll-hint")) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.hidden = true;
        w.parentNode.insertBefore(hint, w);
      }
      var table = w.querySelector("table"), box = w.getBoundingClientRect();
      var off = [];
      if (table && table.tHead && w.scrollWidth > w.clientWidth + 1) {
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
          if (th.getBoundingClientRect().right > box.right + 1) off.push(th.textContent);
        });
      }
      w.classList.toggle("scrolls", off.length > 0);
      hint.hidden = off.length === 0;
      hint.textContent = off.length ? "More columns to the right (scroll the table sideways): " + off.join(", ") + " \u2192" : "";
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.data"), enhanceTable);
  markScrolling();
  window.addEventListener("resize", markScrolling);
  enhanceTooltips();
  enhanceNav();
})();
