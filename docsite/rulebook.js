// The reference site's own script (added by docsite/hooks.py).
//
// - Formulas: pymdownx.arithmatex marks each one (a span for math in a line of
//   text or a table cell, a div for a formula on its own); KaTeX, shipped with
//   the site, renders it. A formula wider than the page is made smaller, down
//   to a limit, and past that set as text that wraps after its operators.
// - Tables: a table wider than the page (on a phone) is shown as one card per
//   row, each cell under its column's header, instead of scrolling sideways.
(function () {
  "use strict";

  var SMALLEST = 0.55; // the least a display formula is scaled to fit

  function tex(el) {
    var text = el.textContent.trim();
    return text.replace(/^\\[([]/, "").replace(/\\[)\]]$/, "");
  }

  function render(el, display) {
    window.katex.render(tex(el), el, {
      displayMode: display,
      throwOnError: true,
      output: "html",
    });
  }

  function renderMath() {
    document.querySelectorAll(".arithmatex").forEach(function (el) {
      el.setAttribute("data-tex", tex(el));
      try {
        render(el, el.tagName !== "SPAN");
      } catch (error) {
        console.error("formula not rendered: " + error.message);
      }
    });
  }

  function fitFormulas() {
    document.querySelectorAll("div.arithmatex").forEach(function (el) {
      if (!el.hasAttribute("data-tex")) return;
      el.textContent = "\\[" + el.getAttribute("data-tex") + "\\]";
      el.style.fontSize = "";
      el.classList.remove("rb-wrapped");
      render(el, true);
      var scale = 1;
      while (el.scrollWidth > el.clientWidth && scale > SMALLEST) {
        scale -= 0.05;
        el.style.fontSize = scale + "em";
      }
      if (el.scrollWidth > el.clientWidth) {
        el.style.fontSize = "";
        el.classList.add("rb-wrapped");
        render(el, false);
      }
    });
  }

  function labelCells(table) {
    var headers = Array.prototype.map.call(
      table.querySelectorAll("thead th"),
      function (th) { return th.textContent.trim(); }
    );
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (headers[i]) cell.setAttribute("data-label", headers[i]);
      });
    });
  }

  function fitTables() {
    document.querySelectorAll(".md-typeset table:not([class])").forEach(function (table) {
      var holder = table.closest(".md-typeset__scrollwrap") || table.parentElement;
      table.removeAttribute("data-rb-cards");
      if (table.scrollWidth > holder.clientWidth + 1) {
        if (!table.hasAttribute("data-rb-labelled")) {
          labelCells(table);
          table.setAttribute("data-rb-labelled", "");
        }
        table.setAttribute("data-rb-cards", "");
      }
    });
  }

  function fit() {
    fitFormulas();
    fitTables();
  }

  function ready() {
    fit();
    // For tests and readers' tools: the formulas are rendered and fitted.
    document.documentElement.setAttribute("data-rb-ready", "");
  }

  function start() {
    renderMath();
    fit();
    if (document.fonts && document.fonts.ready) {
      document.fonts.ready.then(ready); // KaTeX's fonts change the formulas' widths
    } else {
      ready();
    }
    var pending = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(pending);
      pending = window.setTimeout(fit, 100);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
