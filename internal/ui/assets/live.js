// The live page: folds a run's events (live.jsonl, as server-sent
// events) in order into its figures, charts and tables, and sends the
// buttons' requests. Each event carries only its own fields; see the Kind
// constants in internal/live/event.go for what each one means.
"use strict";
(function () {
  const root = document.getElementById("live");
  if (!root) return;
  const replay = parseFloat(root.dataset.replay) || 0;
  const $ = (id) => document.getElementById(id);

  // st is everything the page shows, folded from the events so far.
  const st = {
    running: root.dataset.running === "true", // a process writes the run (the server says)
    replayOver: false,
    start: null, first: 0, last: 0, // the plan; the first and last event's time (s)
    end: null,
    phase: "", scale: 0, cycle: 0,
    eta: 0, etaAt: 0, // the run's ETA (s) and the time it was told (page clock, s)
    // finished: "scale/cycle" -> the finished cycle's final counts and
    // failed trials by class; cur: the cycle running, so far. The page's
    // transactions and its errors by class are both their sum: the whole
    // run, one span for both figures.
    finished: new Map(), cur: { committed: 0, failed: 0, errors: {}, types: [] },
    nodes: null, log: [], marks: [],
    // Chart data, uPlot's shape: x first, then one array per series.
    rate: [[], []], latency: [[], [], [], []], cpu: [[], [], [], []], io: [[], [], [], [], []],
    sweep: new Map(), // scale -> median tps
  };
  // dirty names the parts of the page that changed since they were last
  // drawn: redrawing only those, at most once a second, keeps a watching
  // tab's cost to the run it watches small (bench/ui-watch.sh).
  const dirty = new Set(["rate", "latency", "cpu", "io", "sweep", "marks", "errors", "types", "nodes", "log"]);

  const seconds = (iso) => Date.parse(iso.replace(/(\.\d{3})\d+/, "$1")) / 1000;
  const orNull = (v) => (v ? v : null);

  function fold(e) {
    const t = seconds(e.time);
    if (!st.first) st.first = t;
    st.last = t;
    switch (e.kind) {
      case "start":
        st.start = e;
        st.end = null;
        // A resumed run runs again each scale it had not finished, and
        // results.json keeps only the new cycles of those: so does the
        // page.
        if (e.resumed) {
          for (const [key, c] of st.finished) if (!st.sweep.has(c.scale)) st.finished.delete(key);
        }
        st.cur = { committed: 0, failed: 0, errors: {}, types: [] };
        dirty.add("sweep").add("errors");
        break;
      case "phase":
        st.phase = e.phase || "";
        // A new scale has no cycle yet: the last scale's "3 of 3" would
        // read as this one's.
        if (e.scale && e.scale !== st.scale) st.cycle = 0;
        if (e.scale) st.scale = e.scale;
        dirty.add("sweep");
        break;
      case "rate":
        if (e.scale) st.scale = e.scale;
        if (e.cycle) st.cycle = e.cycle;
        if (st.finished.has(e.scale + "/" + e.cycle)) break; // late, already counted
        st.cur = { committed: e.committed || 0, failed: e.failed || 0, errors: e.errors || {}, types: e.types || [] };
        st.eta = (e.eta_ns || 0) / 1e9;
        st.etaAt = replay ? t : Date.now() / 1000;
        st.rate[0].push(t); st.rate[1].push(e.tps || 0);
        st.latency[0].push(t);
        st.latency[1].push(orNull(e.p50_ms)); st.latency[2].push(orNull(e.p95_ms)); st.latency[3].push(orNull(e.p99_ms));
        dirty.add("rate").add("latency").add("errors").add("types");
        break;
      case "cycle": {
        const key = e.scale + "/" + e.cycle;
        st.finished.set(key, { scale: e.scale, committed: e.committed || 0, failed: e.failed || 0, errors: e.errors || {}, types: e.types || [] });
        st.cur = { committed: 0, failed: 0, errors: {}, types: [] };
        dirty.add("errors").add("types");
        break;
      }
      case "scale":
        st.sweep.set(e.scale, e.tps || 0);
        dirty.add("sweep");
        break;
      case "load":
        st.cpu[0].push(t);
        st.cpu[1].push(e.cpu_user || 0); st.cpu[2].push(e.cpu_system || 0); st.cpu[3].push(e.cpu_iowait || 0);
        st.io[0].push(t);
        st.io[1].push(e.disk_read_bps || 0); st.io[2].push(e.disk_write_bps || 0);
        st.io[3].push(e.net_rx_bps || 0); st.io[4].push(e.net_tx_bps || 0);
        dirty.add("cpu").add("io");
        break;
      case "nodes":
        st.nodes = e.nodes || [];
        dirty.add("nodes");
        break;
      case "line":
        st.log.push(e.text || "");
        if (st.log.length > 200) st.log.splice(0, st.log.length - 200);
        dirty.add("log");
        break;
      case "mark":
        st.marks.push({ t: t, text: e.text || "" });
        dirty.add("rate").add("latency").add("cpu").add("io").add("marks");
        break;
      case "end":
        st.end = { complete: !!e.complete, error: e.error || "" };
        st.cur = { committed: 0, failed: 0, errors: {}, types: [] }; // an aborted cycle is not counted
        dirty.add("sweep").add("errors");
        break;
    }
  }

  // Formats with units, for ticks and the hover read-out.
  const num = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });
  const count = new Intl.NumberFormat("en");
  const bytes = (v) => {
    const units = ["B/s", "kB/s", "MB/s", "GB/s"];
    let i = 0;
    while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
    return num.format(v) + " " + units[i];
  };
  const duration = (s) => {
    s = Math.max(0, Math.round(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return (h ? h + " h " : "") + (h || m ? m + " min " : "") + r + " s";
  };
  const clock = (t) => new Date(t * 1000).toISOString().slice(11, 19) + " UTC";
  const read = (f) => (u, v) => (v == null ? "–" : f(v));
  const tps = (v) => num.format(v) + " tps";
  // labelRoom is the width a y axis needs (CSS pixels) for its tick
  // labels as formatted (about 7 px a character at uPlot's 12 px font),
  // plus its title and ticks, so that no label is cut.
  const labelRoom = (u, values) => 30 + 7 * Math.max(4, ...(values || []).map((v) => String(v).length));

  // marks draws every mark as a dashed vertical line with its text.
  const marks = {
    hooks: {
      draw: [(u) => {
        const c = u.ctx, b = u.bbox, px = devicePixelRatio;
        c.save();
        c.strokeStyle = "#c40"; c.fillStyle = "#c40"; c.lineWidth = px;
        c.setLineDash([4 * px, 3 * px]);
        c.font = 11 * px + "px sans-serif";
        for (const m of st.marks) {
          const x = u.valToPos(m.t, "x", true);
          if (x < b.left || x > b.left + b.width) continue;
          c.beginPath(); c.moveTo(x, b.top); c.lineTo(x, b.top + b.height); c.stroke();
          c.fillText(m.text, x + 3 * px, b.top + 12 * px);
        }
        c.restore();
      }],
    },
  };

  const width = (el) => Math.max(320, el.clientWidth || 560);
  const utc = (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC");

  // timeChart is a chart of series over time, in one unit.
  function timeChart(id, title, axis, names, colors, fmt, data) {
    const el = $(id);
    return new uPlot({
      title: title, width: width(el), height: 240, tzDate: utc,
      // Every time chart spans the run so far, so that their marks line up.
      scales: { x: { time: true, range: () => [st.first || Date.now() / 1000 - 60, Math.max(st.last, st.first + 10)] } },
      series: [{ label: "time", value: read(clock) }].concat(names.map((n, i) => ({
        label: n, stroke: colors[i], width: 1.5, spanGaps: true, value: read(fmt),
      }))),
      axes: [
        { label: "time (UTC)", space: 70, values: (u, splits) => splits.map((v) => clock(v).slice(0, 8)) },
        { label: axis, size: labelRoom, values: (u, splits) => splits.map(fmt) },
      ],
      plugins: [marks],
    }, data, el);
  }

  const charts = {
    rate: timeChart("chart-rate", "Rate", "transactions per second", ["rate"], ["#1f5fa8"],
      (v) => num.format(v) + " tps", st.rate),
    latency: timeChart("chart-latency", "Residence time (over the last second)", "milliseconds",
      ["p50", "p95", "p99"], ["#1f5fa8", "#d08020", "#b02020"], (v) => num.format(v) + " ms", st.latency),
    cpu: timeChart("chart-cpu", "CPU", "percent of all cores", ["user", "system", "iowait"],
      ["#1f5fa8", "#b02020", "#888"], (v) => num.format(v) + " %", st.cpu),
    io: timeChart("chart-io", "Disk and network", "bytes per second",
      ["disk read", "disk write", "net received", "net sent"], ["#1f5fa8", "#b02020", "#2a8a3a", "#d08020"], bytes, st.io),
    sweep: null,
  };

  // onScreen holds the time charts in view: the others are not redrawn
  // until they come back into view.
  const onScreen = new Set();
  const seen = new IntersectionObserver((entries) => {
    for (const en of entries) {
      const name = en.target.dataset.chart;
      if (en.isIntersecting) onScreen.add(name); else onScreen.delete(name);
    }
    show();
  });
  for (const name of ["rate", "latency", "cpu", "io"]) {
    const el = $("chart-" + name);
    el.dataset.chart = name;
    seen.observe(el);
  }

  // sweepScales are the scales of the plan, those measured and the one
  // running, in order, each once.
  function sweepScales() {
    const all = ((st.start && st.start.scales) || []).concat([...st.sweep.keys()], st.scale ? [st.scale] : []);
    return [...new Set(all)].sort((a, b) => a - b);
  }

  // sweepChart draws the sweep's rate against database size on a log
  // axis spanning the plan's scales, the scale running highlighted.
  function sweepChart() {
    const el = $("chart-sweep");
    const running = {
      hooks: {
        draw: [(u) => {
          if (!st.scale || st.end) return;
          const c = u.ctx, b = u.bbox, x = u.valToPos(st.scale, "x", true);
          c.save();
          c.fillStyle = "rgba(40, 130, 60, 0.15)";
          c.fillRect(x - 6 * devicePixelRatio, b.top, 12 * devicePixelRatio, b.height);
          c.fillStyle = "#271"; c.font = 11 * devicePixelRatio + "px sans-serif";
          c.fillText("running", x + 8 * devicePixelRatio, b.top + 12 * devicePixelRatio);
          c.restore();
        }],
      },
    };
    return new uPlot({
      title: "The sweep: rate against database size", width: width(el), height: 240,
      scales: {
        x: {
          time: false, distr: 3, log: 10,
          range: () => {
            const all = sweepScales();
            const lo = Math.min(...all), hi = Math.max(...all);
            return [lo / 1.5, hi * 1.5];
          },
        },
      },
      series: [
        { label: "scale", value: read((v) => count.format(v)) },
        { label: "median rate", stroke: "#1f5fa8", width: 1.5, points: { size: 8 }, value: read(tps) },
      ],
      axes: [
        // A tick at every scale of the plan (and every scale measured):
        // the log axis's own ticks would label only the powers of ten.
        {
          label: "database size (scale)", splits: () => sweepScales(),
          // uPlot's log axes blank the labels of ticks that are not
          // powers of ten; every planned scale keeps its label.
          filter: (u, splits) => splits,
          values: (u, splits) => splits.map((v) => (v == null ? "" : count.format(v))),
        },
        { label: "transactions per second", size: labelRoom, values: (u, splits) => splits.map(tps) },
      ],
      plugins: [running],
    }, sweepData(), el);
  }

  function sweepData() {
    const xs = [...st.sweep.keys()].sort((a, b) => a - b);
    return [xs, xs.map((x) => st.sweep.get(x))];
  }

  function status() {
    if (st.end) {
      if (st.end.complete) return ["complete", "finished complete"];
      return ["failed", "failed: " + (st.end.error || "the run ended incomplete")];
    }
    if (replay) return st.replayOver ? ["stale", "not running (no end recorded)"] : ["running", "replaying"];
    if (st.running) return ["running", st.start ? "running" : "running (waiting for its first event)"];
    return ["stale", "not running (no end recorded)"];
  }

  function text(id, s) {
    const el = $(id);
    if (el.textContent !== s) el.textContent = s;
  }

  // setHidden changes an element's hidden only when it differs: every
  // change costs the page a new layout.
  function setHidden(el, hidden) {
    if (el.hidden !== hidden) el.hidden = hidden;
  }

  function rows(tbody, list, empty) {
    tbody.replaceChildren();
    if (!list.length && empty) list = [[empty]];
    for (const cells of list) {
      const tr = tbody.insertRow();
      for (const c of cells) tr.insertCell().textContent = c;
      if (cells.length === 1) tr.cells[0].colSpan = 4;
    }
  }

  // phaseText is the phase as the page says it: populating a scale is
  // loading it, named, since the scale's cycles have not begun.
  function phaseText() {
    if (st.phase === "populating" && st.scale) return "loading scale " + count.format(st.scale);
    return st.phase || "–";
  }

  // runErrors are the failed trials by class of the whole run: its
  // finished cycles' and the running one's so far, the span of the failed
  // count beside the transactions.
  function runErrors() {
    const sum = {};
    const add = (errs) => { for (const [c, n] of Object.entries(errs || {})) sum[c] = (sum[c] || 0) + n; };
    for (const c of st.finished.values()) add(c.errors);
    add(st.cur.errors);
    return sum;
  }

  // runTypes are the commits per transaction type of the whole run (its
  // finished cycles' and the running one's so far), in the workload's
  // order, with the running cycle's rate over its last second.
  function runTypes() {
    const byName = new Map();
    const add = (types, rate) => {
      for (const t of types || []) {
        const r = byName.get(t.name) || { committed: 0, tps: null };
        r.committed += t.committed || 0;
        if (rate) r.tps = t.tps || 0;
        byName.set(t.name, r);
      }
    };
    for (const c of st.finished.values()) add(c.types, false);
    add(st.cur.types, true);
    return byName;
  }

  // show puts the folded state on the page: the figures each second (the
  // elapsed time and ETA move), the charts and tables when events came.
  function show() {
    const [cls, words] = status();
    if ($("status").className !== cls) $("status").className = cls;
    text("status", words);
    const s = st.start || {};
    if (s.experiment) text("experiment", s.experiment);
    if (s.engine) text("engine", s.engine);
    text("phase", st.end ? "ended" : phaseText());
    const scales = s.scales || [];
    const k = scales.indexOf(st.scale);
    text("scale", st.scale ? count.format(st.scale) + (k >= 0 ? " (" + (k + 1) + " of " + scales.length + ")" : "") : "–");
    text("cycle", st.cycle ? st.cycle + (s.cycles ? " of " + s.cycles : "") : "–");
    const now = replay || st.end || !st.running ? st.last : Date.now() / 1000;
    text("elapsed", st.first ? duration(now - st.first) : "–");
    const left = st.eta - ((replay ? st.last : now) - st.etaAt);
    text("eta", st.end ? "–" : st.eta ? duration(left) : "–");
    const total = { committed: st.cur.committed, failed: st.cur.failed };
    for (const c of st.finished.values()) { total.committed += c.committed; total.failed += c.failed; }
    text("committed", count.format(total.committed));
    text("failed", count.format(total.failed));
    const form = $("control");
    if (form) setHidden(form, !(st.running && !st.end));
    const changed = (part) => dirty.delete(part);
    // A time chart is redrawn when its own data came (its time axis then
    // reaches the latest event, so the charts line up within a second),
    // and only while it is on screen: one scrolled out of view is redrawn
    // when it comes back (onScreen).
    for (const name of ["rate", "latency", "cpu", "io"]) {
      if (dirty.has(name) && onScreen.has(name)) {
        dirty.delete(name);
        charts[name].setData(st[name]);
      }
    }
    for (const id of ["load-cpu", "load-io"]) setHidden($(id), st.cpu[0].length === 0);
    if (changed("sweep") && (scales.length || st.sweep.size)) {
      $("sweep").hidden = false;
      if (!charts.sweep) charts.sweep = sweepChart();
      else charts.sweep.setData(sweepData());
    }
    if (changed("marks")) {
      $("marks").hidden = st.marks.length === 0;
      $("mark-list").replaceChildren(...st.marks.map((m) => {
        const li = document.createElement("li");
        li.textContent = clock(m.t) + ": " + m.text;
        return li;
      }));
    }
    if (changed("errors")) {
      const errs = Object.entries(runErrors()).sort((a, b) => b[1] - a[1]);
      rows($("errors"), errs.map(([c, n]) => [c, count.format(n)]), "none so far");
    }
    if (changed("types")) {
      const types = runTypes();
      setHidden($("types"), types.size === 0);
      rows($("type-rows"), [...types].map(([name, r]) => [name, r.tps === null ? "–" : num.format(r.tps), count.format(r.committed)]));
    }
    if (changed("nodes") && st.nodes) {
      $("nodes").hidden = false;
      rows($("node-rows"), st.nodes.map((n) => [n.name, n.status,
        num.format((n.heartbeat_age_ns || 0) / 1e9), count.format(n.committed || 0)]));
    }
    if (changed("log")) {
      const log = $("log"), atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
      text("log", st.log.join("\n"));
      if (atEnd) log.scrollTop = log.scrollHeight;
    }
  }

  const url = root.dataset.events + (replay ? "?replay=" + replay : "");
  const es = new EventSource(url);
  es.onmessage = (m) => fold(JSON.parse(m.data));
  es.addEventListener("running", (m) => { st.running = m.data === "true"; dirty.add("sweep"); });
  es.addEventListener("eof", () => { es.close(); st.replayOver = true; dirty.add("sweep"); show(); });
  setInterval(show, 1000);

  const form = $("control");
  if (form) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = new URLSearchParams({ csrf: form.elements.csrf.value, action: ev.submitter ? ev.submitter.value : "" });
      if (body.get("action") === "mark") body.set("text", form.elements.text.value);
      let answer;
      try {
        // form.action would be the buttons named "action", not the address.
        const r = await fetch(form.getAttribute("action"), { method: "POST", body: body });
        answer = (await r.text()).trim();
        if (r.ok && body.get("action") === "mark") form.elements.text.value = "";
      } catch (err) {
        answer = "the request was not sent: " + err;
      }
      text("answer", answer);
    });
  }

  // For tests and the curious: the folded state and the charts.
  window.dbgaugeLive = { state: st, charts: charts };
})();
