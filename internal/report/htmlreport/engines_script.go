package htmlreport

import "html/template"

// enginesScript makes the engines view selectable in the browser, with no
// server and nothing fetched: it shows the selectors, and on every change
// recomputes, for the ticked engines and queries, each cell's time
// relative to the fastest ticked engine, the geometric means (the same
// rule as engineScores, with the same constant, read from the data block)
// and the order of the summary. Its formatting (ratioText, paint) mirrors
// engineRatioText and engineBarStyle. Without it the page shows every
// engine and query, as rendered.
const enginesScript template.JS = `(function () {
  "use strict";
  var block = document.getElementById("engines-data");
  var detail = document.getElementById("engines-detail");
  var summary = document.getElementById("engines-summary");
  if (!block || !detail || !summary) { return; }
  var data = JSON.parse(block.textContent);
  function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  var eBoxes = all("input.engines-e"), qBoxes = all("input.engines-q");
  function ratioText(r) {
    if (!isFinite(r)) { return "\u2013"; }
    return "\u00d7" + (r < 10 ? r.toFixed(2) : r < 100 ? r.toFixed(1) : r.toFixed(0));
  }
  function paint(bar, r) {
    if (!isFinite(r) || r < 1) { bar.style.display = "none"; return; }
    var l = Math.log10(r);
    bar.style.display = "";
    bar.style.width = (0.15 + 3.85 * Math.min(1, l)).toFixed(2) + "em";
    bar.style.background = "hsl(" + Math.round(120 * Math.max(0, 1 - l)) + ",60%,42%)";
  }
  function update() {
    var es = data.engines.map(function () { return false; });
    eBoxes.forEach(function (b) { es[+b.dataset.engine] = b.checked; });
    var qs = data.rows.map(function () { return false; });
    qBoxes.forEach(function (b) { qs[+b.dataset.row] = b.checked; });
    var anyEngine = es.indexOf(true) >= 0;
    var logs = es.map(function () { return 0; }), answered = es.map(function () { return 0; });
    var common = 0, selectedRows = 0;
    data.rows.forEach(function (ms, i) {
      var best = null;
      ms.forEach(function (t, j) { if (es[j] && t !== null && (best === null || t < best)) { best = t; } });
      var tr = detail.querySelector('tr[data-row="' + i + '"]');
      if (tr) {
        tr.style.opacity = qs[i] ? "" : "0.45";
        ms.forEach(function (t, j) {
          var td = tr.querySelector('td[data-engine="' + j + '"]');
          if (!td || t === null || !es[j]) { return; }
          td.querySelector(".rel").textContent = ratioText(t / best);
          paint(td.querySelector(".bar"), t / best);
        });
      }
      if (!qs[i]) { return; }
      selectedRows++;
      if (!anyEngine) { return; }
      var every = true;
      ms.forEach(function (t, j) { if (es[j]) { if (t !== null) { answered[j]++; } else { every = false; } } });
      if (!every) { return; }
      common++;
      ms.forEach(function (t, j) { if (es[j]) { logs[j] += Math.log((t + data.shift_ms) / (best + data.shift_ms)); } });
    });
    all("#engines-detail [data-engine]").forEach(function (el) { el.style.display = es[+el.dataset.engine] ? "" : "none"; });
    var rows = Array.prototype.slice.call(summary.querySelectorAll("tr[data-engine]"));
    rows.forEach(function (tr) {
      var j = +tr.dataset.engine;
      var geo = es[j] && common > 0 ? Math.exp(logs[j] / common) : NaN;
      tr.dataset.sort = isFinite(geo) ? geo : Infinity;
      tr.style.opacity = es[j] ? "" : "0.45";
      tr.querySelector(".rel").textContent = ratioText(geo);
      paint(tr.querySelector(".bar"), geo);
      tr.querySelector(".ans").textContent = es[j] ? answered[j] + " of " + selectedRows : "not selected";
    });
    rows.sort(function (a, b) { return (+a.dataset.sort - +b.dataset.sort) || (+a.dataset.engine - +b.dataset.engine); });
    rows.forEach(function (tr) { summary.appendChild(tr); });
    document.getElementById("engines-n").textContent = common;
  }
  document.getElementById("engines-controls").hidden = false;
  qBoxes.forEach(function (b) { b.hidden = false; });
  eBoxes.concat(qBoxes).forEach(function (b) { b.addEventListener("change", update); });
  function tickAll(on) { return function () { qBoxes.forEach(function (b) { b.checked = on; }); update(); }; }
  document.getElementById("engines-all").addEventListener("click", tickAll(true));
  document.getElementById("engines-none").addEventListener("click", tickAll(false));
  update();
})();`
