// Hedonic Hypothesis in a browser: draws the server's frames on a canvas and sends the keys up.
// The protocol is described in roguelike/frontend/frames.py (frames) and
// roguelike/frontend/web/keycodes.py (what goes up). No build step: this file is served as is.
"use strict";
(() => {
  const KEYFRAME = 1, DIFF = 2, DEFLATED = 3, CELL = 10;
  const KEY_DOWN = 0x10, TEXT = 0x11, MOUSE_MOVE = 0x12, MOUSE_CLICK = 0x13, KEY_UP = 0x14;
  const FONT = "HedonicMono";
  const ADVANCE = 0.6021, LINE = 1.1641; // DejaVu Sans Mono's advance and line height, in ems
  const PASSED_KEYS = new Set(["F5", "F11", "F12"]); // the browser's own: reload, fullscreen, tools
  const canvas = document.getElementById("screen");
  const status = document.getElementById("status");
  const ctx = canvas.getContext("2d", {alpha: false});
  const params = new URLSearchParams(location.search);
  const watching = location.pathname.startsWith("/watch/");
  const encoder = new TextEncoder();
  let columns = 0, rows = 0;
  let ch = new Uint32Array(0), fg = new Uint8Array(0), bg = new Uint8Array(0);
  let cellW = 8, cellH = 16, fontPx = 13, pointed = -1, keyAt = null;
  const state = {frames: 0, latencies: [], closed: null, watchers: 0, title: "", sockets: 0, reconnecting: false};

  function socketUrl() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const path = watching ? "/ws" + location.pathname : "/ws/play";
    const token = params.get("token");
    return scheme + "//" + location.host + path + (token ? "?token=" + encodeURIComponent(token) : "");
  }

  // The largest whole-pixel cell with which the whole screen fits the window.
  function fit() {
    if (!columns) return;
    const dpr = window.devicePixelRatio || 1;
    let width = Math.max(4, Math.floor(innerWidth / columns));
    while (width > 4 && Math.round(width / ADVANCE * LINE) * rows > innerHeight) width -= 1;
    cellW = width;
    fontPx = cellW / ADVANCE;
    cellH = Math.round(fontPx * LINE);
    canvas.style.width = columns * cellW + "px";
    canvas.style.height = rows * cellH + "px";
    canvas.style.marginTop = Math.max(0, Math.floor((innerHeight - rows * cellH) / 2)) + "px";
    canvas.width = Math.round(columns * cellW * dpr);
    canvas.height = Math.round(rows * cellH * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.textBaseline = "middle";
    ctx.font = fontPx + "px " + FONT + ", monospace";
    document.fonts.load(ctx.font).then(drawAll, drawAll);
  }

  function colour(array, i) {
    return "rgb(" + array[i * 3] + "," + array[i * 3 + 1] + "," + array[i * 3 + 2] + ")";
  }

  // Block elements are drawn as rectangles, so they join without seams at any size.
  function drawBlock(code, x, y) {
    const eighths = (n) => Math.round(cellH * n / 8), wide = (n) => Math.round(cellW * n / 8);
    if (code === 0x2588) ctx.fillRect(x, y, cellW, cellH);
    else if (code === 0x2580) ctx.fillRect(x, y, cellW, eighths(4));
    else if (code >= 0x2581 && code <= 0x2587) ctx.fillRect(x, y + cellH - eighths(code - 0x2580), cellW, eighths(code - 0x2580));
    else if (code >= 0x2589 && code <= 0x258f) ctx.fillRect(x, y, wide(0x2590 - code), cellH);
    else if (code === 0x2590) ctx.fillRect(x + wide(4), y, cellW - wide(4), cellH);
    else if (code === 0x2594) ctx.fillRect(x, y, cellW, eighths(1));
    else if (code === 0x2595) ctx.fillRect(x + cellW - wide(1), y, wide(1), cellH);
    else {
      ctx.globalAlpha = (code - 0x2590) / 4; // the three shades
      ctx.fillRect(x, y, cellW, cellH);
      ctx.globalAlpha = 1;
    }
  }

  function drawCell(i) {
    const x = (i % columns) * cellW, y = Math.floor(i / columns) * cellH, code = ch[i];
    ctx.fillStyle = colour(bg, i);
    ctx.fillRect(x, y, cellW, cellH);
    if (code === 0 || code === 32) return;
    ctx.fillStyle = colour(fg, i);
    if (code >= 0x2580 && code <= 0x2595) drawBlock(code, x, y);
    else ctx.fillText(String.fromCodePoint(code), x, y + cellH / 2, cellW);
  }

  function drawAll() {
    for (let i = 0; i < columns * rows; i++) drawCell(i);
  }

  function readCell(view, at, i) {
    ch[i] = view.getUint32(at, true);
    for (let c = 0; c < 3; c++) {
      fg[i * 3 + c] = view.getUint8(at + 4 + c);
      bg[i * 3 + c] = view.getUint8(at + 7 + c);
    }
    drawCell(i);
  }

  function applyKeyframe(view) {
    const width = view.getUint16(1, true), height = view.getUint16(3, true);
    if (width !== columns || height !== rows) {
      columns = width; rows = height;
      ch = new Uint32Array(width * height); fg = new Uint8Array(width * height * 3); bg = new Uint8Array(width * height * 3);
      fit();
    }
    for (let i = 0; i < columns * rows; i++) readCell(view, 5 + i * CELL, i);
  }

  function applyDiff(view) {
    let at = 3;
    for (let run = view.getUint16(1, true); run > 0; run--) {
      const start = view.getUint16(at, true), length = view.getUint16(at + 2, true);
      at += 4;
      for (let i = start; i < start + length; i++, at += CELL) readCell(view, at, i);
    }
  }

  function onFrame(data) {
    const view = new DataView(data);
    if (!live) { live = true; wait = FIRST_WAIT; }
    if (state.reconnecting) { state.reconnecting = false; showStatus(); }
    if (view.getUint8(0) === KEYFRAME) applyKeyframe(view);
    else if (view.getUint8(0) === DIFF && columns) applyDiff(view);
    state.frames += 1;
    if (state.frames === 1) showStatus();
    if (keyAt !== null) {
      state.latencies.push(performance.now() - keyAt);
      keyAt = null;
    }
  }

  function onNote(text) {
    const note = JSON.parse(text);
    if ("watchers" in note) { state.watchers = note.watchers; state.title = note.title; }
    if ("closed" in note) state.closed = note.closed;
    showStatus();
  }

  function showStatus() {
    if (state.closed) { status.textContent = state.closed; return; }
    if (state.reconnecting) { status.textContent = "connection lost: reconnecting\u2026"; return; }
    const others = state.watchers === 1 ? "1 watching" : state.watchers + " watching";
    if (watching) status.textContent = "watching " + state.title + " \u00b7 " + others;
    else status.textContent = state.watchers ? others : "";
  }

  // One current socket. Once the game has been shown, a connection that drops (1006), or a server going
  // down (1001, 1012), is tried again, waiting longer each time (with jitter, so a gateway's players do not
  // all come back at once); a close the server gave a reason for (the game over, another tab, a policy, try
  // later) is not. A first socket the server refused is not either: the browser sees a refusal as 1006.
  const RETRIED = new Set([1001, 1006, 1012]);
  const FIRST_WAIT = 500, LONGEST_WAIT = 5000; // milliseconds between tries to reconnect
  let socket = null, live = false, wait = FIRST_WAIT;
  // Frames may come deflated (kind 3, compressed once by the server for every viewer):
  // inflating is asynchronous, so every message, and the close, waits its turn in one chain.
  let arriving = Promise.resolve();

  function connect() {
    const opened = new WebSocket(socketUrl());
    opened.binaryType = "arraybuffer";
    opened.onmessage = (event) => {
      const data = event.data;
      arriving = arriving
        .then(() => (typeof data === "string" ? onNote(data) : inflate(data).then(onFrame)))
        .catch((error) => { state.closed = "a frame could not be read: " + error; showStatus(); });
    };
    opened.onclose = (event) => { arriving = arriving.then(() => onClose(event)); };
    socket = opened;
    live = false;
    state.sockets += 1;
  }

  async function inflate(data) {
    if (new Uint8Array(data, 0, 1)[0] !== DEFLATED) return data;
    const stream = new Blob([data.slice(1)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(stream).arrayBuffer();
  }

  function onClose(event) {
    live = false;
    if (!state.closed && state.frames > 0 && RETRIED.has(event.code)) {
      state.reconnecting = true;
      showStatus();
      setTimeout(connect, wait * (0.8 + 0.4 * Math.random()));
      wait = Math.min(wait * 2, LONGEST_WAIT);
      return;
    }
    state.reconnecting = false;
    state.closed = state.closed || event.reason || "disconnected: the game is not running";
    showStatus();
  }

  // Only to a socket that has shown the screen: keys typed blind while reconnecting are dropped, never queued.
  function send(bytes) {
    if (live && socket.readyState === WebSocket.OPEN) socket.send(bytes);
  }

  function sendKey(kind, event) {
    const code = event.code;
    if (!/^[A-Za-z0-9]{1,32}$/.test(code)) return;
    const bits = (event.shiftKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.altKey ? 4 : 0) | (event.repeat ? 8 : 0);
    const bytes = new Uint8Array(2 + code.length);
    bytes[0] = kind; bytes[1] = bits;
    for (let i = 0; i < code.length; i++) bytes[2 + i] = code.charCodeAt(i);
    send(bytes);
  }

  function sendText(text) {
    const body = encoder.encode(text);
    const bytes = new Uint8Array(1 + body.length);
    bytes[0] = TEXT; bytes.set(body, 1);
    send(bytes);
  }

  window.addEventListener("keydown", (event) => {
    if (watching || event.metaKey || event.isComposing || PASSED_KEYS.has(event.code)) return;
    event.preventDefault();
    if (event.altKey && (event.code === "Enter" || event.code === "NumpadEnter")) {
      if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen();
      return;
    }
    if (live) keyAt = performance.now();
    sendKey(KEY_DOWN, event);
    if ([...event.key].length === 1 && !event.ctrlKey && !event.altKey) sendText(event.key);
  });
  window.addEventListener("keyup", (event) => { if (!watching) sendKey(KEY_UP, event); });

  function cellAt(event) {
    const x = Math.floor(event.offsetX / cellW), y = Math.floor(event.offsetY / cellH);
    return x >= 0 && y >= 0 && x < columns && y < rows ? [x, y] : null;
  }
  canvas.addEventListener("mousemove", (event) => {
    const cell = cellAt(event);
    if (watching || cell === null || cell[1] * columns + cell[0] === pointed) return;
    pointed = cell[1] * columns + cell[0];
    send(new Uint8Array([MOUSE_MOVE, cell[0], cell[1]]));
  });
  canvas.addEventListener("mousedown", (event) => {
    const cell = cellAt(event);
    if (watching || cell === null || event.button > 2) return;
    event.preventDefault();
    canvas.focus();
    send(new Uint8Array([MOUSE_CLICK, cell[0], cell[1], event.button + 1]));
  });
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  window.addEventListener("resize", () => { fit(); });
  canvas.focus();
  connect();

  // For tests and the curious: the screen as text, one string per row.
  window.hedonic = {
    state,
    text() {
      const lines = [];
      for (let y = 0; y < rows; y++) {
        let line = "";
        for (let x = 0; x < columns; x++) {
          const code = ch[y * columns + x];
          line += code ? String.fromCodePoint(code) : " ";
        }
        lines.push(line);
      }
      return lines;
    },
  };
})();
