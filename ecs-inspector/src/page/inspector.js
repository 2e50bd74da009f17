// The inspector's page: polls the JSON endpoints and draws each view.
// Every value from the world is shown with textContent, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { page: 0, perPage: 50, with: "", without: "", picked: null, writes: false, history: new Map(), frames: 0 };
const HISTORY = 120;
const COLOURS = ["#6cb6ff", "#f0b72f", "#7ee787", "#ff7b72", "#d2a8ff", "#56d4dd", "#ffa657", "#e6edf3", "#a5d6ff", "#ffdf5d"];

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function row(cells) {
  const tr = el("tr");
  for (const [text, cls] of cells) tr.append(el("td", text, cls));
  return tr;
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.body = body;
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, options);
  const json = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(json.error || response.statusText);
  $("error").textContent = "";
  return json;
}

function report(error) {
  $("error").textContent = error.message;
}

function bytes(n) {
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KiB";
  return (n / 1024 / 1024).toFixed(1) + " MiB";
}

async function refreshWorld() {
  const world = await call("GET", "/api/world");
  $("frame").textContent = world.frame;
  $("entity-count").textContent = world.entities;
  state.writes = world.writes;
  $("controls").hidden = !world.writes;
  $("entity-actions").hidden = !world.writes || !state.picked;
  $("state").textContent = (world.paused ? "paused" : "running") + (world.writes ? "" : " · read-only");
  const stats = $("stats");
  stats.replaceChildren();
  const s = world.stats;
  for (const [label, value] of [["live entities", s.live_entities], ["entity slots", s.entity_slots], ["free slots", s.free_slots],
    ["component types", s.component_types], ["components", s.components], ["heap", bytes(s.heap_bytes)]]) {
    stats.append(el("dt", label), el("dd", value));
  }
  const body = $("components").tBodies[0];
  body.replaceChildren(...world.components.map((c) => row([[c.name], [c.count, "num"], [c.size, "num"], [bytes(c.bytes), "num"]])));
}

async function refreshEntities() {
  const query = new URLSearchParams({ page: state.page, per_page: state.perPage });
  if (state.with) query.set("with", state.with);
  if (state.without) query.set("without", state.without);
  const table = await call("GET", "/api/entities?" + query);
  const pages = Math.max(1, Math.ceil(table.total / table.per_page));
  $("page-info").textContent = `page ${table.page + 1} of ${pages} · ${table.total} match`;
  const body = $("entities").tBodies[0];
  body.replaceChildren(...table.rows.map((r) => {
    const tr = el("tr");
    tr.dataset.entity = r.entity;
    if (r.entity === state.picked) tr.className = "picked";
    tr.append(el("td", r.entity));
    const cell = el("td", null, "value");
    cell.textContent = r.components.map((c) => c.value).join(", ");
    tr.append(cell);
    tr.addEventListener("click", () => { state.picked = r.entity; refreshEntity().catch(report); });
    return tr;
  }));
  if (!state.picked && table.rows.length) {
    state.picked = table.rows[0].entity;
    await refreshEntity();
  }
}

async function refreshEntity() {
  const target = $("entity-components");
  if (!state.picked) return;
  $("entity-id").textContent = state.picked;
  $("entity-actions").hidden = !state.writes;
  let entity;
  try {
    entity = await call("GET", "/api/entities/" + state.picked);
  } catch (error) {
    target.replaceChildren(el("p", error.message, "error"));
    return;
  }
  // Keep an edit box the user is typing in.
  if (target.contains(document.activeElement) && document.activeElement.tagName === "TEXTAREA") return;
  target.replaceChildren(...entity.components.map((c) => {
    const box = el("div", null, "component");
    box.append(el("span", c.name, "name"), el("span", ` ${c.size} bytes${c.tag ? ", tag" : ""}`, "meta"));
    box.append(el("div", c.tag ? "" : c.pretty, "value"));
    if (c.editable && state.writes) {
      const area = el("textarea");
      area.rows = 3;
      area.value = JSON.stringify(c.json);
      const save = el("button", "Save " + c.name);
      save.type = "button";
      save.addEventListener("click", () => {
        call("PUT", `/api/entities/${entity.entity}/components/${encodeURIComponent(c.name)}`, area.value)
          .then(() => { area.blur(); return refreshEntity(); }).catch(report);
      });
      box.append(area, save);
    }
    return box;
  }));
}

async function refreshSystems() {
  const data = await call("GET", "/api/systems");
  const body = $("systems").tBodies[0];
  body.replaceChildren(...data.systems.map((s) => row([[s.stage], [s.name], [s.last_us.toFixed(1), "num"], [s.mean_us.toFixed(1), "num"], [s.runs, "num"]])));
  if (data.frame !== state.frames) {
    state.frames = data.frame;
    for (const s of data.systems) {
      const key = s.stage + "/" + s.name;
      const series = state.history.get(key) || [];
      series.push(s.last_us);
      if (series.length > HISTORY) series.shift();
      state.history.set(key, series);
    }
  }
  drawChart();
}

function drawChart() {
  const canvas = $("chart");
  const g = canvas.getContext("2d");
  const { width, height } = canvas;
  g.clearRect(0, 0, width, height);
  const series = [...state.history.entries()];
  const max = Math.max(1, ...series.flatMap(([, values]) => values));
  g.strokeStyle = "#2e333b";
  g.fillStyle = "#8b939e";
  g.font = "11px sans-serif";
  for (let i = 0; i <= 4; i++) {
    const y = height - 14 - (i / 4) * (height - 24);
    g.beginPath(); g.moveTo(36, y); g.lineTo(width, y); g.stroke();
    g.fillText((max * i / 4).toFixed(0), 2, y + 4);
  }
  const legend = $("legend");
  legend.replaceChildren();
  series.forEach(([name, values], i) => {
    const colour = COLOURS[i % COLOURS.length];
    g.strokeStyle = colour;
    g.lineWidth = 1.5;
    g.beginPath();
    values.forEach((v, x) => {
      const px = 36 + (x / (HISTORY - 1)) * (width - 40);
      const py = height - 14 - (v / max) * (height - 24);
      if (x === 0) g.moveTo(px, py); else g.lineTo(px, py);
    });
    g.stroke();
    const item = el("li", name);
    const swatch = el("i");
    swatch.style.background = colour;
    item.prepend(swatch);
    legend.append(item);
  });
}

async function refreshSchedule() {
  const data = await call("GET", "/api/schedule");
  const target = $("schedule");
  target.replaceChildren(...data.stages.map((stage) => {
    const box = el("div", null, "stage");
    const count = stage.order.length;
    box.append(el("h3", `${stage.stage} · ${count} ${count === 1 ? "system" : "systems"}`));
    stage.batches.forEach((batch, i) => {
      const line = el("div", null, "batch");
      line.append(el("span", `batch ${i + 1} ${batch.length > 1 ? "(at once)" : "(alone)"}: `, "label"), el("span", batch.join(", ")));
      box.append(line);
    });
    for (const c of stage.conflicts) box.append(el("div", c.text, "conflict"));
    return box;
  }));
  if (!data.stages.length) target.replaceChildren(el("p", "no systems", "plain"));
}

async function refreshEvents() {
  const data = await call("GET", "/api/events");
  const none = (what) => row([[what, "plain"], [""]]);
  $("events").tBodies[0].replaceChildren(...(data.events.length ? data.events.map((e) => row([[e.name], [e.queued, "num"]])) : [none("no event types")]));
  $("observers").tBodies[0].replaceChildren(...(data.observers.length ? data.observers.map((o) => row([[o.kind], [o.component]])) : [none("no observers")]));
  $("resources").replaceChildren(...data.resources.map((r) => el("li", r)));
}

function every(ms, task) {
  const run = () => task().catch(report).finally(() => setTimeout(run, ms));
  run();
}

function control(action) {
  call("POST", "/api/" + action).then(refreshWorld).catch(report);
}

document.addEventListener("DOMContentLoaded", () => {
  $("filter").addEventListener("submit", (event) => {
    event.preventDefault();
    state.with = $("with").value.trim();
    state.without = $("without").value.trim();
    state.page = 0;
    refreshEntities().catch(report);
  });
  $("prev").addEventListener("click", () => { state.page = Math.max(0, state.page - 1); refreshEntities().catch(report); });
  $("next").addEventListener("click", () => { state.page += 1; refreshEntities().catch(report); });
  $("pause").addEventListener("click", () => control("pause"));
  $("step").addEventListener("click", () => control("step"));
  $("resume").addEventListener("click", () => control("resume"));
  $("despawn").addEventListener("click", () => {
    if (!state.picked) return;
    call("DELETE", "/api/entities/" + state.picked).then(() => { state.picked = null; return refreshEntities(); }).catch(report);
  });
  every(1000, refreshWorld);
  every(500, refreshSystems);
  every(2000, refreshEntities);
  every(1000, refreshEntity);
  every(5000, refreshSchedule);
  every(2000, refreshEvents);
});
