// ttt serve: the analysis board. Plain JavaScript, no build step. The page knows no rule of
// any game: positions, legal moves, results, engine moves and hints all come from the JSON
// API (docs/web.md). The whole state is in the URL: ?game=&moves=&x=&o=&hints=.
"use strict";

const $ = (id) => document.getElementById(id);

const state = {
  game: "tic-tac-toe",
  moves: "",
  seats: { X: "human", O: "human" },
  hints: true,
  position: null, // the last /api/position answer
  line: [], // moves texts of the deepest line seen (for redo): line[i] is ply i + 1
  hintMap: new Map(), // action -> hint event
  verdict: null,
  unsolved: null, // why the whole position has no hints
  hintCtl: null,
  engineCtl: null,
  paused: false, // the computer waits (after undo, redo or a jump)
  focus: 0, // the focused cell
  loadSeq: 0,
};

async function api(path, params, signal) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`${path}?${query}`, { signal });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = await response.json();
      message = body.error || message;
    } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return response;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function announce(text) {
  $("announce").textContent = text;
}

// ---- URL ----

function readUrl() {
  const params = new URLSearchParams(location.search);
  state.game = params.get("game") || "tic-tac-toe";
  state.moves = params.get("moves") || "";
  state.seats.X = params.get("x") || "human";
  state.seats.O = params.get("o") || "human";
  state.hints = params.get("hints") !== "0";
}

function urlFor(moves) {
  const params = new URLSearchParams({ game: state.game, moves });
  if (state.seats.X !== "human") params.set("x", state.seats.X);
  if (state.seats.O !== "human") params.set("o", state.seats.O);
  if (!state.hints) params.set("hints", "0");
  return `?${params.toString()}`;
}

// ---- loading a position ----

// Shows the position `moves` of the current game; `push` adds a history entry.
async function go(moves, { push = true, replace = false } = {}) {
  const seq = ++state.loadSeq;
  stopWork();
  let position;
  try {
    position = await (await api("/api/position", { game: state.game, moves })).json();
  } catch (error) {
    if (seq === state.loadSeq) showError(error.message);
    return false;
  }
  if (seq !== state.loadSeq) return false;
  showError("");
  state.position = position;
  state.moves = position.moves;
  const texts = position.history.map((ply) => ply.moves);
  const onLine = texts.every((text, i) => state.line[i] === text);
  if (!onLine) state.line = texts;
  const url = urlFor(position.moves);
  if (push && url !== location.search) history.pushState(null, "", url);
  else if (replace) history.replaceState(null, "", url);
  setSeatOptions(position);
  render();
  if (position.status !== "ongoing") {
    const result = position.status === "draw" ? "Game over: draw." : `Game over: ${position.winner} won.`;
    announce(`${$("announce").textContent} ${result}`.trim());
  }
  startHints();
  maybeEngine();
  return true;
}

function stopWork() {
  if (state.hintCtl) state.hintCtl.abort();
  if (state.engineCtl) state.engineCtl.abort();
  state.hintCtl = null;
  state.engineCtl = null;
  state.hintMap = new Map();
  state.verdict = null;
  state.unsolved = null;
}

// ---- hints ----

async function startHints() {
  const position = state.position;
  if (!state.hints || position.status !== "ongoing") {
    renderHints();
    return;
  }
  const ctl = new AbortController();
  state.hintCtl = ctl;
  renderHints();
  try {
    const response = await api("/api/hints", { game: state.game, moves: position.moves }, ctl.signal);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line && state.hintCtl === ctl) onHint(JSON.parse(line));
      }
    }
  } catch (error) {
    if (error.name !== "AbortError" && state.hintCtl === ctl) showError(`hints: ${error.message}`);
  }
  if (state.hintCtl === ctl) state.hintCtl = null;
}

function onHint(event) {
  switch (event.event) {
    case "hint": state.hintMap.set(event.action, event); break;
    case "verdict": state.verdict = event; break;
    case "unsolved":
      if (event.action === null) state.unsolved = event.why;
      else state.hintMap.set(event.action, event);
      break;
    default: break;
  }
  renderHints();
}

function hintText(hint, gravity) {
  if (!hint) return { cls: "pending", text: "… solving" };
  if (hint.event === "unsolved") return { cls: "pending", text: "? unsolved" };
  const shape = { win: "▲", draw: "■", loss: "▼" }[hint.result];
  const text = hint.result === "draw" ? `${shape} draw` : `${shape} ${hint.result} ${hint.distance}`;
  const score = state.game === "connect-four" ? `(${hint.score > 0 ? "+" : ""}${hint.score})` : "";
  return { cls: hint.result, text, score, gravity };
}

// ---- engine ----

function seatOf(player) {
  return state.seats[player];
}

function maybeEngine() {
  const position = state.position;
  if (!position || position.status !== "ongoing" || state.paused) return;
  const level = seatOf(position.to_move);
  if (level === "human") return;
  engineMove(level);
}

async function engineMove(level) {
  const position = state.position;
  const ctl = new AbortController();
  state.engineCtl = ctl;
  renderStatus(`${position.to_move} (${level}) is thinking…`);
  try {
    const answer = await (await api("/api/move",
      { game: state.game, moves: position.moves, level }, ctl.signal)).json();
    if (state.engineCtl !== ctl) return;
    state.engineCtl = null;
    // Engine against engine: a short pause so people can follow.
    const both = seatOf("X") !== "human" && seatOf("O") !== "human";
    if (both) await new Promise((resolve) => setTimeout(resolve, 400));
    if (state.position !== position || state.paused) return;
    announce(`${position.to_move} (${level}) played ${answer.move}.`);
    await go(answer.moves);
  } catch (error) {
    if (error.name !== "AbortError" && state.engineCtl === ctl) showError(`computer: ${error.message}`);
  }
}

// ---- actions ----

function play(action) {
  const position = state.position;
  if (!position || position.status !== "ongoing") return;
  if (seatOf(position.to_move) !== "human") return;
  const legal = position.legal.find((m) => m.action === action);
  if (!legal) {
    announce("That move is not legal here.");
    return;
  }
  state.paused = false;
  announce(`${position.to_move} played ${legal.move}.`);
  go(legal.moves);
}

function plyText(ply) {
  return ply === 0 ? "" : state.line[ply - 1];
}

function jump(ply) {
  if (!state.position || ply < 0 || ply > state.line.length) return;
  state.paused = true;
  go(plyText(ply));
}

function undo() {
  const position = state.position;
  if (!position || position.plies === 0) return;
  let ply = position.plies - 1;
  // Against the computer, back to the person's own turn.
  const human = ["X", "O"].filter((p) => seatOf(p) === "human");
  if (human.length === 1 && ply > 0) {
    const moverAt = (n) => (n % 2 === 0 ? "X" : "O");
    if (moverAt(ply) !== human[0]) ply -= 1;
  }
  jump(ply);
}

function redo() {
  const position = state.position;
  if (position && position.plies < state.line.length) jump(position.plies + 1);
}

function newGame() {
  state.paused = false;
  state.line = [];
  go("");
}

function flip() {
  [state.seats.X, state.seats.O] = [state.seats.O, state.seats.X];
  $("seat-x").value = state.seats.X;
  $("seat-o").value = state.seats.O;
  state.paused = false;
  history.replaceState(null, "", urlFor(state.moves));
  render();
  maybeEngine();
}

function setGame(spec) {
  state.game = spec;
  state.line = [];
  state.paused = false;
  state.focus = 0;
  go("");
}

// ---- rendering ----

function setSeatOptions(position) {
  for (const player of ["X", "O"]) {
    const select = $(`seat-${player.toLowerCase()}`);
    const names = ["human", ...position.levels.map((l) => l.name)];
    if (!names.includes(state.seats[player])) state.seats[player] = "human";
    const wanted = names.join(",");
    if (select.dataset.names !== wanted) {
      select.textContent = "";
      for (const name of names) {
        const option = document.createElement("option");
        option.value = name;
        const level = position.levels.find((l) => l.name === name);
        option.textContent = level ? `computer: ${name} (${level.player})` : "human";
        select.append(option);
      }
      select.dataset.names = wanted;
    }
    select.value = state.seats[player];
  }
  const known = [...$("game").options].some((o) => o.value === position.game);
  $("game").value = known ? position.game : "custom";
  $("custom-box").hidden = known;
  if (!known) $("custom").value = position.game;
}

// Cells as large as the room allows (at most 5.4rem, at least 1.6rem: a 19-column board
// scrolls inside its frame on a phone), gaps and padding counted.
function cellSize(position) {
  const wrap = $("board").parentElement;
  const room = Math.min(wrap.clientWidth || window.innerWidth - 32, 720);
  const gap = position.cols > 9 ? 1 : 3;
  const px = (room - gap * (position.cols + 1) - 2) / Math.max(position.cols, position.rows * 0.8);
  const size = Math.max(1.6, Math.min(5.4, px / 16));
  return `${size.toFixed(2)}rem`;
}

function render() {
  const position = state.position;
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  board.textContent = "";
  board.classList.toggle("wide", position.cols > 9);
  board.style.gridTemplateColumns = `repeat(${position.cols}, auto)`;
  board.style.setProperty("--size", cellSize(position));
  document.body.classList.toggle("hints-off", !state.hints);
  const rows = position.board.split("/");
  const ultimate = position.kind === "ultimate";
  board.classList.toggle("ultimate", ultimate);
  renderMeta(position);
  const inLine = new Set((position.lines || []).flat());
  // Ultimate: the small board and cell of a drawn cell (geometry of the drawing, no rule), and
  // each small board's status and whether the mover may play there, as the server says.
  const smallBoard = (r, c) => Math.floor(r / 3) * 3 + Math.floor(c / 3);
  const smallCell = (r, c) => (r % 3) * 3 + (c % 3);
  const last = position.history.length ? position.history[position.history.length - 1].cell : -1;
  const legalByCell = new Map(position.legal.map((m) => [m.cell, m]));
  const colLabel = (c) => (position.gravity ? `column ${c + 1}` : `${String.fromCharCode(97 + c)}${position.rows - rowOf}`);
  let rowOf = 0;
  for (let r = 0; r < position.rows; r += 1) {
    const rowEl = document.createElement("div");
    rowEl.setAttribute("role", "row");
    rowEl.style.display = "contents";
    rowOf = r;
    for (let c = 0; c < position.cols; c += 1) {
      const index = r * position.cols + c;
      const mark = rows[r][c];
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.dataset.cell = String(index);
      cell.dataset.col = String(c);
      cell.tabIndex = index === state.focus ? 0 : -1;
      const name = ultimate ? `board ${smallBoard(r, c)}, cell ${smallCell(r, c)}` : colLabel(c);
      if (ultimate) {
        const info = position.boards[smallBoard(r, c)];
        if (c % 3 === 0 && c > 0) cell.classList.add("bl");
        if (r % 3 === 0 && r > 0) cell.classList.add("bt");
        if (info.playable) cell.classList.add("playable");
        if (info.status === "x-won") cell.classList.add("won-x");
        if (info.status === "o-won") cell.classList.add("won-o");
        if (info.status === "draw") cell.classList.add("drawn");
      }
      let label;
      if (mark === "X" || mark === "O") {
        cell.classList.add(mark.toLowerCase());
        cell.textContent = mark;
        label = `${position.gravity ? `row ${position.rows - r}, ${name}` : name}: ${mark}`;
      } else {
        label = `${position.gravity ? `row ${position.rows - r}, ${name}` : name}: empty`;
      }
      if (ultimate) {
        const status = position.boards[smallBoard(r, c)].status;
        if (status !== "ongoing") label += `, ${boardWords(status)}`;
      }
      if (inLine.has(index)) cell.classList.add("line");
      if (index === last) cell.classList.add("last");
      const legal = position.gravity
        ? position.legal.find((m) => m.action === c)
        : legalByCell.get(index);
      if (legal) {
        cell.dataset.action = String(legal.action);
        if (legal.cell === index) {
          const hint = document.createElement("span");
          hint.className = "hint";
          hint.dataset.action = String(legal.action);
          cell.append(hint);
        }
        label += position.gravity ? `, plays ${name}` : ", playable";
      }
      cell.dataset.label = label;
      cell.setAttribute("aria-label", label);
      cell.addEventListener("focus", () => { state.focus = index; });
      cell.addEventListener("click", () => {
        state.focus = index;
        if (cell.dataset.action !== undefined) play(Number(cell.dataset.action));
        else if (state.position.status === "ongoing") announce("That move is not legal here.");
      });
      rowEl.append(cell);
    }
    board.append(rowEl);
  }
  $("digit-keys").hidden = !position.gravity;
  renderMoves();
  renderStatus();
  renderHints();
  $("undo").disabled = position.plies === 0;
  $("redo").disabled = position.plies >= state.line.length;
  $("engine").disabled = position.status !== "ongoing";
  $("hints").checked = state.hints;
  if (hadFocus) focusCell(Math.min(state.focus, position.rows * position.cols - 1));
}

// A small board's status in words.
function boardWords(status) {
  return { "x-won": "board won by X", "o-won": "board won by O", draw: "board drawn" }[status] || "open";
}

// Ultimate: the meta-board in letters (X or O won, # drawn, * the mover may play there, .
// open) and where the mover plays, in words; hidden for the other games.
function renderMeta(position) {
  const box = $("meta");
  box.hidden = position.kind !== "ultimate";
  if (box.hidden) return;
  const grid = $("meta-grid");
  grid.textContent = "";
  for (const info of position.boards) {
    const span = document.createElement("span");
    span.textContent = { "x-won": "X", "o-won": "O", draw: "#" }[info.status] || (info.playable ? "*" : ".");
    grid.append(span);
  }
  const won = (status) => position.boards.filter((b) => b.status === status).map((b) => b.board);
  const parts = [];
  for (const [status, words] of [["x-won", "won by X"], ["o-won", "won by O"], ["draw", "drawn"]]) {
    const boards = won(status);
    if (boards.length) parts.push(`${words}: ${boards.length > 1 ? "boards" : "board"} ${boards.join(", ")}`);
  }
  let where = "";
  if (position.status === "ongoing") {
    where = position.next_board === null
      ? `${position.to_move} plays in any open board (outlined).`
      : `${position.to_move} plays in board ${position.next_board} (outlined).`;
  }
  $("meta-text").textContent = `Small boards ${parts.length ? parts.join("; ") : "all open"}. ${where}`.trim();
}

function renderStatus(text) {
  const position = state.position;
  let line = text;
  if (!line) {
    if (position.status === "ongoing") {
      const seat = seatOf(position.to_move);
      line = `${position.to_move} to move (${seat === "human" ? "human" : `computer: ${seat}`}), ply ${position.plies}`;
      if (state.paused && seat !== "human") line += ": press e to let the computer move";
    } else if (position.status === "draw") {
      line = "Game over: draw";
    } else {
      line = `Game over: ${position.winner} won`;
    }
  }
  $("status").textContent = line;
}

function renderMoves() {
  const position = state.position;
  const list = $("moves");
  list.textContent = "";
  const entry = (ply, text) => {
    const li = document.createElement("li");
    if (ply > position.plies) li.className = "future";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    if (ply === position.plies) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => jump(ply));
    li.append(button);
    list.append(li);
  };
  entry(0, "0. start");
  // The line's move names: from the current history, then the deeper line's texts.
  state.line.forEach((text, i) => {
    const ply = i + 1;
    const known = position.history[i];
    const name = known ? known.move : lastMoveOf(text, position);
    entry(ply, `${ply}. ${ply % 2 === 1 ? "X" : "O"} ${name}`);
  });
}

// The last move of a moves text, as written in it (a column or a cell).
function lastMoveOf(text, position) {
  if (text.includes(",") || !position.gravity || position.cols > 9) {
    return text.split(",").pop();
  }
  return text.slice(-1);
}

function renderHints() {
  const position = state.position;
  if (!position) return;
  const note = $("solver-note");
  const verdict = $("verdict");
  if (!state.hints) {
    verdict.textContent = "";
    note.hidden = true;
    return;
  }
  if (state.unsolved) {
    note.hidden = false;
    note.textContent = `No hints: ${state.unsolved}.`;
  } else {
    note.hidden = true;
  }
  if (position.status !== "ongoing") {
    verdict.textContent = "";
  } else if (state.verdict) {
    verdict.textContent = `Verdict: ${state.verdict.words}.`;
  } else {
    verdict.textContent = state.unsolved ? "" : "Verdict: solving…";
  }
  const best = new Set(state.verdict ? state.verdict.best_moves : []);
  for (const el of document.querySelectorAll("#board .hint")) {
    const action = Number(el.dataset.action);
    if (state.unsolved) {
      el.hidden = true;
      continue;
    }
    el.hidden = false;
    const { cls, text, score } = hintText(state.hintMap.get(action), position.gravity);
    el.className = `hint ${cls}${best.has(action) && cls !== "pending" ? " best" : ""}`;
    el.textContent = text;
    if (score) {
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = score;
      el.append(n);
    }
    const cell = el.closest(".cell");
    const said = `${text.replace(/^[▲■▼…?] /, "")}${score ? `, score ${score.slice(1, -1)}` : ""}`;
    if (cell) cell.setAttribute("aria-label", `${cell.dataset.label}, ${said}`);
  }
}

// ---- keyboard ----

function moveFocus(dr, dc) {
  const position = state.position;
  const r = Math.floor(state.focus / position.cols);
  const c = state.focus % position.cols;
  const nr = Math.min(position.rows - 1, Math.max(0, r + dr));
  const nc = Math.min(position.cols - 1, Math.max(0, c + dc));
  focusCell(nr * position.cols + nc);
}

function focusCell(index) {
  state.focus = index;
  for (const cell of document.querySelectorAll("#board .cell")) {
    cell.tabIndex = Number(cell.dataset.cell) === index ? 0 : -1;
    if (cell.tabIndex === 0) cell.focus();
  }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target.tagName === "INPUT" || target.tagName === "SELECT") return;
  const onBoard = target.classList && target.classList.contains("cell");
  const position = state.position;
  if (!position) return;
  const keys = {
    ArrowUp: () => moveFocus(-1, 0),
    ArrowDown: () => moveFocus(1, 0),
    ArrowLeft: () => (onBoard ? moveFocus(0, -1) : undo()),
    ArrowRight: () => (onBoard ? moveFocus(0, 1) : redo()),
    u: undo,
    r: redo,
    n: newGame,
    f: flip,
    e: () => { state.paused = false; if (position.status === "ongoing") engineMove(seatOf(position.to_move) === "human" ? "hard" : seatOf(position.to_move)); },
    h: () => setHints(!state.hints),
  };
  if (keys[event.key]) {
    if (event.key.startsWith("Arrow") && !onBoard && (event.key === "ArrowUp" || event.key === "ArrowDown")) return;
    event.preventDefault();
    keys[event.key]();
    return;
  }
  if (position.gravity && /^[1-9]$/.test(event.key)) {
    const column = Number(event.key) - 1;
    if (column < position.cols) {
      event.preventDefault();
      play(column);
    }
  }
}

function setHints(on) {
  state.hints = on;
  $("hints").checked = on;
  history.replaceState(null, "", urlFor(state.moves));
  document.body.classList.toggle("hints-off", !on);
  if (on && !state.hintCtl && state.hintMap.size === 0) startHints();
  renderHints();
}

// ---- start ----

function init() {
  readUrl();
  $("game").addEventListener("change", () => {
    const value = $("game").value;
    $("custom-box").hidden = value !== "custom";
    if (value !== "custom") setGame(value);
    else $("custom").focus();
  });
  $("custom-apply").addEventListener("click", () => setGame($("custom").value.trim()));
  $("custom").addEventListener("keydown", (e) => { if (e.key === "Enter") setGame($("custom").value.trim()); });
  for (const player of ["X", "O"]) {
    $(`seat-${player.toLowerCase()}`).addEventListener("change", (e) => {
      state.seats[player] = e.target.value;
      state.paused = false;
      history.replaceState(null, "", urlFor(state.moves));
      renderStatus();
      maybeEngine();
    });
  }
  $("new").addEventListener("click", newGame);
  $("flip").addEventListener("click", flip);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("engine").addEventListener("click", () => {
    const position = state.position;
    state.paused = false;
    if (position && position.status === "ongoing") {
      const seat = seatOf(position.to_move);
      engineMove(seat === "human" ? "hard" : seat);
    }
  });
  $("hints").addEventListener("change", (e) => setHints(e.target.checked));
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => {
    if (state.position) $("board").style.setProperty("--size", cellSize(state.position));
  });
  window.addEventListener("popstate", () => {
    readUrl();
    state.paused = true;
    go(state.moves, { push: false });
  });
  go(state.moves, { push: false, replace: true });
}

init();
