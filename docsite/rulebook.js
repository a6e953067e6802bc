// The reference site's own script (added by docsite/hooks.py).
//
// - Formulas: pymdownx.arithmatex marks each one (a span for math in a line of
//   text or a table cell, a div for a formula on its own); KaTeX, shipped with
//   the site, renders it. A formula wider than the page is made smaller, down
//   to a limit, and past that set as text that wraps after its operators.
// - Previews: a link to another page of the site (a rule, a system) shows, on
//   hover or keyboard focus, that page's heading, first paragraphs and first
//   rows of its first table, read from the page itself (the site's own host).
//   Opened from its folder (file://), where a page may read no other file,
//   the links are left as they are: no preview, and nothing asked.
// - Tables stay tables: one wider than the page scrolls in its own box
//   (docsite/rulebook.css), never the page.
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
        el.textContent = el.getAttribute("data-tex"); // the TeX again, not the math drawn
        render(el, false);
      }
    });
  }

  // -- previews of links to other pages ------------------------------------------

  var WAIT_MS = 250; // before a preview opens, and before it closes
  var ROWS = 6; // the most rows of a table a preview shows
  var pages = {}; // each page's preview, by address: a promise of a node
  var popup = null;
  var timer = null;
  var shownFor = null;

  function target(link) {
    var href = link.getAttribute("href");
    if (!href || href.charAt(0) === "#" || link.closest(".rb-preview, .md-nav, .headerlink")) return null;
    var url = new URL(href, document.baseURI);
    if (url.origin !== location.origin || !/\.html$/.test(url.pathname)) return null;
    if (url.pathname === location.pathname) return null;
    if (/\/rules\/[^/]+\/[^/]+\.yaml\.html$/.test(url.pathname)) return null; // a rules file
    return url;
  }

  function textOf(node) {
    var copy = node.cloneNode(true);
    copy.querySelectorAll(".headerlink").forEach(function (a) { a.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /** What a page (or the section a link points to) shows first: its heading,
   * its first paragraphs and its first table, cut short. */
  function previewOf(doc, hash) {
    var article = doc.querySelector("article") || doc.body;
    var start = (hash && doc.getElementById(hash.slice(1))) || article.querySelector("h1");
    var box = document.createElement("div");
    var heading = document.createElement("strong");
    heading.textContent = start ? textOf(start) : doc.title;
    box.appendChild(heading);
    var paragraphs = 0;
    var table = null;
    var node = start ? start.nextElementSibling : article.firstElementChild;
    while (node && !/^H[12]$/.test(node.tagName) && (paragraphs < 2 || !table)) {
      if (node.tagName === "P" && paragraphs < 2 && !node.querySelector("img")) {
        var p = document.createElement("p");
        p.textContent = textOf(node);
        box.appendChild(p);
        paragraphs += 1;
      }
      var found = node.tagName === "TABLE" ? node : node.querySelector && node.querySelector("table:not([class])");
      if (found && !table) {
        table = document.createElement("table");
        var rows = found.querySelectorAll("tr");
        for (var i = 0; i < rows.length && i <= ROWS; i += 1) {
          var row = document.createElement("tr");
          Array.prototype.forEach.call(rows[i].children, function (cell) {
            var made = document.createElement(cell.tagName === "TH" ? "th" : "td");
            made.textContent = textOf(cell);
            row.appendChild(made);
          });
          table.appendChild(row);
        }
        box.appendChild(table);
      }
      node = node.nextElementSibling;
    }
    return box;
  }

  function load(url) {
    var address = url.origin + url.pathname;
    if (!pages[address]) {
      pages[address] = fetch(address, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(response.status + " " + address);
          return response.text();
        })
        .then(function (text) {
          return new DOMParser().parseFromString(text, "text/html");
        });
    }
    return pages[address].then(function (doc) { return previewOf(doc, url.hash); });
  }

  function place(link) {
    var box = link.getBoundingClientRect();
    var width = Math.min(popup.offsetWidth, document.documentElement.clientWidth - 8);
    var left = Math.max(4, Math.min(box.left, document.documentElement.clientWidth - width - 4));
    popup.style.left = left + window.scrollX + "px";
    popup.style.top = box.bottom + window.scrollY + 4 + "px";
  }

  function open(link, url) {
    shownFor = link;
    load(url).then(
      function (node) {
        if (shownFor !== link) return;
        popup.replaceChildren(node);
        popup.hidden = false;
        link.setAttribute("aria-describedby", popup.id);
        place(link);
      },
      function () { /* no preview: the link still works */ }
    );
  }

  function close() {
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
    popup.hidden = true;
  }

  function later(action) {
    window.clearTimeout(timer);
    timer = window.setTimeout(action, WAIT_MS);
  }

  function startPreviews() {
    popup = document.createElement("div");
    popup.className = "rb-preview";
    popup.id = "rb-preview";
    popup.setAttribute("role", "tooltip");
    popup.hidden = true;
    document.body.appendChild(popup);
    popup.addEventListener("mouseenter", function () { window.clearTimeout(timer); });
    popup.addEventListener("mouseleave", function () { later(close); });
    document.querySelectorAll(".md-content article a[href]").forEach(function (link) {
      var url = target(link);
      if (!url) return;
      link.setAttribute("data-rb-preview", "");
      var show = function () { later(function () { open(link, url); }); };
      var hide = function () { later(close); };
      link.addEventListener("mouseenter", show);
      link.addEventListener("focus", show);
      link.addEventListener("mouseleave", hide);
      link.addEventListener("blur", hide);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") close();
    });
  }

  function fit() {
    fitFormulas();
  }

  function ready() {
    fit();
    // For tests and readers' tools: the formulas are rendered and fitted.
    document.documentElement.setAttribute("data-rb-ready", "");
  }

  function start() {
    if (location.protocol !== "file:") startPreviews();
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
