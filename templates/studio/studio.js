// pnp studio: the page's only script. It reads the state the server made (api/state), draws
// it with DOM calls (every text from a data file goes in as textContent, never as HTML), and
// listens for versions (api/events, Server-Sent Events) to fetch it again. Pictures are named
// by content, so a new version changes only the <img> whose drawing changed; the page keeps
// its scroll position and zoom. window.studio holds what tests read (the load times).
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const q = (path) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
  const $ = (id) => document.getElementById(id);
  const studio = { version: -1, state: null, loads: [], view: "sheets", picked: null,
                   marked: new Set(), rendered: 0 };
  window.studio = studio;

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  // The first sheets load at once; the rest, and the faces, when scrolled or switched to
  // (a kit of 30 sheets opens as fast as one of 3; each picture is drawn when first asked).
  const EAGER_SHEETS = 3;

  function picture(name, extra = {}, eager = false) {
    const img = el("img", { src: q(`picture/${name}.png`), alt: "", ...extra });
    if (!eager) img.loading = "lazy";
    img.addEventListener("load", () => studio.loads.push({ src: name, t: Date.now() }));
    return img;
  }

  // -- sheets ---------------------------------------------------------------------------
  function pageFigure(page, caption, back, flip, eager) {
    const box = el("div", { class: "page" });
    box.style.width = `calc(var(--mm) * ${page.w})`;
    box.style.height = `calc(var(--mm) * ${page.h})`;
    box.append(picture(page.picture, { "data-page": page.page }, eager));
    if (back) {
      box.append(picture(back.picture, { class: `back mirror-${flip === "short" ? "short" : "long"}`,
                                         "data-page": back.page }, eager));
    }
    for (const piece of page.pieces) {
      const button = el("button", { type: "button", class: "piece", "data-key": piece.key,
                                    "aria-label": `${piece.label} (${piece.side})`,
                                    title: piece.label, onclick: () => pick(piece.key) });
      button.style.left = `${(piece.x / page.w) * 100}%`;
      button.style.top = `${(piece.y / page.h) * 100}%`;
      button.style.width = `${(piece.w / page.w) * 100}%`;
      button.style.height = `${(piece.h / page.h) * 100}%`;
      box.append(button);
    }
    return el("figure", {}, box, el("figcaption", { text: caption }));
  }

  function drawSheets(drawing) {
    const light = $("lighttable").checked;
    const flip = studio.state.flip;
    const out = [];
    for (const sheet of drawing.sheets) {
      const sides = el("div", { class: "sides" });
      const front = sheet.front, back = sheet.back;
      const eager = out.length < EAGER_SHEETS;
      if (light && front && back) {
        sides.append(pageFigure(front, `page ${front.page} with page ${back.page} behind it, ` +
                                `as held to a lamp (flip on the ${flip} edge)`, back, flip, eager));
      } else {
        if (front) sides.append(pageFigure(front, `page ${front.page} · front · ${front.content}`,
                                           null, flip, eager));
        if (back) sides.append(pageFigure(back, `page ${back.page} · back · ${back.content}`,
                                          null, flip, eager));
      }
      out.push(el("div", { class: "sheet", "data-sheet": sheet.sheet },
                  el("h2", { text: `Sheet ${sheet.sheet}` }), sides));
    }
    $("view-sheets").replaceChildren(...out);
  }

  // -- faces ----------------------------------------------------------------------------
  function drawFaces(drawing) {
    const out = [];
    const scale = 1.2;  // a face at 1.2 times the sheets' zoom
    for (const comp of drawing.components) {
      const faces = el("div", { class: "faces" });
      for (const face of comp.faces) {
        const pair = el("div", { class: "pair" });
        for (const name of [face.front, face.back]) {
          if (!name) continue;
          const img = picture(name);
          img.style.width = `calc(var(--mm) * ${face.w * scale})`;
          img.style.height = `calc(var(--mm) * ${face.h * scale})`;
          pair.append(img);
        }
        faces.append(el("button", { type: "button", class: "face", "data-key": face.key,
                                    onclick: () => pick(face.key) },
                        pair, el("div", { text: `${face.label} × ${face.copies}` })));
      }
      out.push(el("div", { class: "component" },
                  el("h2", { text: `${comp.name} (${comp.id}): ${comp.total} pieces, ` +
                                   `${comp.faces.length} distinct` }), faces));
    }
    $("view-faces").replaceChildren(...out);
  }

  // -- report ---------------------------------------------------------------------------
  function drawReport(rows) {
    const out = rows.map((row, index) => {
      const show = row.pieces.length
        ? el("button", { type: "button", text: `mark ${row.pieces.length}`,
                         onclick: () => mark(index) })
        : document.createTextNode("");
      return el("tr", { class: row.status, "data-row": index },
                el("td", { text: row.status.toUpperCase() }),
                el("td", { text: row.check }), el("td", { text: row.detail }),
                el("td", { text: row.where }), el("td", {}, show));
    });
    $("report-rows").replaceChildren(...out);
  }

  function mark(index) {
    const row = studio.state.report[index];
    studio.marked = new Set(row ? row.pieces : []);
    for (const tr of document.querySelectorAll("#report-rows tr")) {
      tr.classList.toggle("selected", Number(tr.dataset.row) === index);
    }
    paintMarks();
    show("sheets");
    const first = document.querySelector("#view-sheets .piece.hl");
    if (first) first.scrollIntoView({ block: "center" });
  }

  function paintMarks() {
    for (const node of document.querySelectorAll(".piece, .face")) {
      node.classList.toggle("hl", studio.marked.has(node.dataset.key));
      node.classList.toggle("picked", node.dataset.key === studio.picked);
    }
  }

  // -- a piece --------------------------------------------------------------------------
  function pick(key) {
    const info = studio.state && studio.state.drawing && studio.state.drawing.pieces[key];
    if (!info) return;
    studio.picked = key;
    paintMarks();
    $("details-title").textContent = info.label;
    const rows = [["Component", `${info.component_name} (${info.component})`],
                  ["Copies", `${info.copies} of this item; ${info.total} pieces in the component`],
                  ["Data row", info.data]];
    for (const [side, tpl] of [["Front template", info.front], ["Back template", info.back]]) {
      if (tpl) rows.push([side, `${tpl.file}${tpl.lines.length ? ", lines " + tpl.lines.join(", ") : ""}`]);
    }
    for (const box of info.boxes) {
      rows.push([`Page ${box.page} (${box.side})`,
                 `x ${box.x} mm, y ${box.y} mm, ${box.w} × ${box.h} mm`]);
    }
    $("details-list").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }),
                                                                  el("dd", { text: v })]));
    $("details").hidden = false;
    $("details").focus();
  }

  // -- play -----------------------------------------------------------------------------
  function drawPlay(play) {
    if (!play) return;
    $("play-text").textContent = play.text;
    const charts = [];
    for (let k = 0; k < play.charts; k++) {
      charts.push(el("img", { src: q(`chart/${k}.png?v=${play.made}`),
                              alt: `simulation chart ${k + 1}` }));
    }
    $("play-charts").replaceChildren(...charts);
  }

  // -- the whole page -------------------------------------------------------------------
  function draw(state) {
    const previous = studio.state;
    studio.state = state;
    document.title = `${state.title} · pnp studio`;
    $("title").textContent = state.title;
    const status = $("status");
    status.classList.toggle("building", state.building);
    status.classList.toggle("failed", !state.building && state.failed);
    status.textContent = state.status;  // the server's words (state.py: Studio.status)
    $("error").hidden = !state.error;
    $("error-text").textContent = state.error ? state.error.lines.join("\n") : "";
    const failing = state.drawing ? state.drawing.failing : [];
    $("failing").hidden = !failing.length;
    $("failing").textContent = failing.length
      ? `NOT VERIFIED (printed on every page until these pass):\n${failing.join("\n")}` : "";
    if (state.drawing && (!previous || previous.drawing !== state.drawing)) {
      const x = window.scrollX, y = window.scrollY;
      drawSheets(state.drawing);
      drawFaces(state.drawing);
      paintMarks();
      window.scrollTo(x, y);
      studio.rendered += 1;
    }
    drawReport(state.report);
    drawPlay(state.play);
  }

  async function refresh() {
    const response = await fetch(q("api/state"), { cache: "no-store" });
    if (!response.ok) return;
    const state = await response.json();
    // two answers may cross: an older state never replaces a newer one
    if (state.version <= studio.version) return;
    // the drawing object is new each fetch; keep the old one when its pictures are the same
    if (studio.state && state.drawing && JSON.stringify(state.drawing) === JSON.stringify(studio.state.drawing)) {
      state.drawing = studio.state.drawing;
    }
    studio.version = state.version;
    draw(state);
  }

  function show(view) {
    studio.view = view;
    for (const tab of document.querySelectorAll(".tab")) {
      tab.setAttribute("aria-pressed", String(tab.dataset.view === view));
    }
    for (const name of ["sheets", "faces", "report", "play"]) $(`view-${name}`).hidden = name !== view;
  }

  function zoom(step) {
    const input = $("zoom");
    input.value = String(Math.min(Number(input.max), Math.max(Number(input.min), Number(input.value) + step)));
    input.dispatchEvent(new Event("input"));
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => show(tab.dataset.view));
    $("zoom").addEventListener("input", (e) => document.documentElement.style.setProperty("--mm", `${e.target.value}px`));
    $("lighttable").addEventListener("change", () => { if (studio.state && studio.state.drawing) { drawSheets(studio.state.drawing); paintMarks(); } });
    $("close-details").addEventListener("click", () => { $("details").hidden = true; });
    document.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement && e.target.type !== "checkbox") return;
      if (e.key === "Escape") { $("details").hidden = true; return; }
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const views = { 1: "sheets", 2: "faces", 3: "report", 4: "play" };
      if (views[e.key]) show(views[e.key]);
      else if (e.key === "l" || e.key === "L") { $("lighttable").click(); }
      else if (e.key === "+" || e.key === "=") zoom(0.25);
      else if (e.key === "-") zoom(-0.25);
    });
    const events = new EventSource(q("api/events"));
    events.onmessage = () => refresh();
    events.onerror = () => { $("status").textContent = "reconnecting…"; };
    refresh();
  });
})();
