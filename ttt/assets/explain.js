// ttt serve: the 3×3 explainer. Every fact shown is an /api/explain answer; setting a cell
// asks the server to set it through the encodings' own get and set.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null; // the last /api/explain answer
let selected = 4; // the selected cell

async function explain(params, push = true) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/explain?${query}`);
  const body = await response.json();
  if (!response.ok) {
    $("error").textContent = body.error;
    $("error").hidden = false;
    return;
  }
  $("error").hidden = true;
  current = body;
  const hadFocus = $("grid").contains(document.activeElement);
  const url = `?board=${encodeURIComponent(body.board)}`;
  if (push && url !== location.search) history.pushState(null, "", url);
  render();
  if (hadFocus) $("grid").querySelector(`[data-cell="${selected}"]`).focus();
}

function cycle(mark) {
  return { ".": "X", X: "O", O: "." }[mark];
}

function setCell(cell, mark) {
  selected = cell;
  explain({ board: current.board, cell, mark });
}

function row(table, cells, header = false) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement(header ? "th" : "td");
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    tr.append(td);
  }
  table.append(tr);
}

// `bits` (most significant first) with the bits of the selected cell marked.
function bitsEl(bits, selectedBits) {
  const span = document.createElement("span");
  span.className = "bits";
  [...bits].forEach((bit, i) => {
    const b = document.createElement("span");
    b.textContent = bit;
    const place = bits.length - 1 - i;
    if (selectedBits.includes(place)) b.className = "sel";
    span.append(b);
  });
  return span;
}

function text(value) {
  return value === null || value === undefined ? "— (none)" : String(value);
}

function render() {
  const e = current;
  $("grid-text").value = e.board;
  const grid = $("grid");
  grid.textContent = "";
  grid.style.gridTemplateColumns = "repeat(3, auto)";
  const values = new Map(e.cell_values.map((v) => [v.cell, v]));
  for (let r = 0; r < 3; r += 1) {
    const rowEl = document.createElement("div");
    rowEl.setAttribute("role", "row");
    rowEl.style.display = "contents";
    for (let c = 0; c < 3; c += 1) {
      const i = r * 3 + c;
      const mark = e.board[i];
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = i === selected ? 0 : -1;
      cell.dataset.cell = String(i);
      let label = `cell ${i}: ${mark === "." ? "empty" : mark}`;
      if (mark !== ".") {
        cell.classList.add(mark.toLowerCase());
        cell.textContent = mark;
      }
      const value = values.get(i);
      if (value) {
        const hint = document.createElement("span");
        const shape = { win: "▲", draw: "■", loss: "▼" }[value.result];
        hint.className = `hint ${value.result}`;
        hint.textContent = value.result === "draw" ? `${shape} draw` : `${shape} ${value.result} ${value.distance}`;
        cell.append(hint);
        label += `, ${hint.textContent.slice(2)}`;
      }
      if (i === selected) cell.classList.add("last");
      cell.setAttribute("aria-label", label);
      cell.addEventListener("click", () => setCell(i, cycle(mark)));
      cell.addEventListener("focus", () => { selected = i; });
      cell.addEventListener("keydown", (ev) => onCellKey(ev, i));
      rowEl.append(cell);
    }
    grid.append(rowEl);
  }
  const facts = [];
  facts.push(e.valid ? "Valid: a reachable position." : `Invalid: breaks ${e.errors.length} rule${e.errors.length === 1 ? "" : "s"}.`);
  if (e.valid) {
    facts.push(`Status ${e.status}${e.to_move ? `, ${e.to_move} to move` : ""}${e.winner ? `, ${e.winner} won` : ""}.`);
    facts.push(`Perfect play: ${e.value}, ${e.distance} plies to the end${e.best_moves.length ? `, best cells ${e.best_moves.join(", ")}` : ""}.`);
  }
  $("facts").textContent = facts.join(" ");
  const list = $("violations");
  list.textContent = "";
  e.errors.forEach((code, i) => {
    const li = document.createElement("li");
    li.textContent = `${code}: ${e.violations[i]}`;
    list.append(li);
  });
  $("set-note").textContent = e.set
    ? `Set cell ${e.set.cell} from ${e.set.from} to ${e.set.to}: base-4 ${e.set.base4_before} → ${e.set.base4_after}, base-3 ${e.set.base3_before} → ${e.set.base3_after}.`
    : "";
  renderCodes(e);
  renderPaper(e);
}

function renderCodes(e) {
  const table = $("codes");
  table.textContent = "";
  row(table, ["encoding", "code", "bits or meaning"], true);
  const cc = e.cell_codes[selected];
  row(table, ["base-4 (18 bits)", String(e.codes.base4),
    bitsEl(e.base4_bits, [2 * selected, 2 * selected + 1])]);
  row(table, [`cell ${selected} in base-4`, String(cc.base4_digit),
    `bits ${2 * selected + 1}..${2 * selected}: ${cc.base4_digit.toString(2).padStart(2, "0")} (00 empty, 01 X, 10 O)`]);
  row(table, ["base-3 (15 bits)", String(e.codes.base3), bitsEl(e.base3_bits, [])]);
  row(table, [`cell ${selected} in base-3`, String(cc.base3_digit),
    `digit ${selected}: adds ${cc.base3_digit} × 3^${selected} = ${cc.base3_digit * cc.base3_weight} (0 empty, 1 X, 2 O)`]);
  row(table, ["base-3 digits", e.cell_codes.map((c) => c.base3_digit).reverse().join(""), "cells 8 to 0"]);
  row(table, ["bitboards", String(e.codes.bitboards), "X's 9 bits, then O's 9 bits"]);
  row(table, ["count rank", text(e.codes.count_rank), "among the 6,046 grids with possible counts"]);
  row(table, ["rank", text(e.codes.rank), "among the 5,478 reachable positions"]);
  row(table, ["canonical", text(e.codes.canonical), "its symmetry class"]);
  row(table, ["symmetry", text(e.codes.symmetry), "carries the class representative onto this grid"]);
  row(table, ["oriented", text(e.codes.oriented), "class × 8 + symmetry"]);
  const lines = $("lines");
  lines.textContent = "";
  row(lines, ["board", "bits (cell 8 … cell 0)"], true);
  row(lines, ["X", bitsEl(e.x_bits.toString(2).padStart(9, "0"), [selected])]);
  row(lines, ["O", bitsEl(e.o_bits.toString(2).padStart(9, "0"), [selected])]);
  row(lines, ["line", "cells", "mask", "held by"], true);
  for (const line of e.line_masks) {
    const held = [line.x ? "X ✓" : "", line.o ? "O ✓" : ""].filter(Boolean).join(", ") || "—";
    row(lines, [String(line.line), line.cells.join("-"), bitsEl(line.mask.toString(2).padStart(9, "0"), []), held]);
  }
}

function renderPaper(e) {
  const truth = e.valid ? e.status : "(invalid grid)";
  $("paper-verdict").textContent =
    `The paper names ${e.paper.winner ? `${e.paper.winner} the winner` : "no winner"}; the true status is ${truth}: ${e.paper.agrees ? "right" : "WRONG"}.`;
  const table = $("patterns");
  table.textContent = "";
  row(table, ["pattern", "mask as printed", "cells (bit i is cell i)", "a line?", "matches"], true);
  for (const p of e.paper.patterns) {
    const matches = [p.x ? "X" : "", p.o ? "O" : ""].filter(Boolean).join(", ") || "—";
    const cells = [...Array(9).keys()].filter((i) => (p.mask >> i) & 1).join("-");
    row(table, [p.name, bitsEl(p.mask.toString(2).padStart(9, "0"), []), cells, p.is_line ? "yes" : "no: four cells", matches]);
  }
}

async function loadWrong() {
  const response = await fetch("/api/paper");
  const body = await response.json();
  $("wrong-count").textContent = `${body.wrong.length} of the ${body.positions} reachable positions; click one to load it.`;
  const list = $("wrong");
  for (const wrong of body.wrong) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = wrong.board;
    button.setAttribute("aria-label", `${wrong.board}: ${wrong.status}, the paper says ${wrong.paper_winner || "no winner"}`);
    button.addEventListener("click", () => explain({ board: wrong.board }));
    li.append(button);
    list.append(li);
  }
}

function onCellKey(event, i) {
  const marks = { x: "X", X: "X", o: "O", O: "O", ".": ".", " ": ".", Delete: ".", Backspace: "." };
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 };
  if (marks[event.key]) {
    event.preventDefault();
    setCell(i, marks[event.key]);
  } else if (moves[event.key] !== undefined) {
    event.preventDefault();
    const next = i + moves[event.key];
    if (next >= 0 && next < 9) {
      selected = next;
      render();
      $("grid").querySelector(`[data-cell="${next}"]`).focus();
    }
  }
}

function fromUrl(push) {
  const board = new URLSearchParams(location.search).get("board") || ".........";
  explain({ board }, push);
}

$("grid-load").addEventListener("click", () => explain({ board: $("grid-text").value.trim() }));
$("grid-text").addEventListener("keydown", (e) => { if (e.key === "Enter") explain({ board: $("grid-text").value.trim() }); });
$("grid-clear").addEventListener("click", () => explain({ board: "........." }));
window.addEventListener("popstate", () => fromUrl(false));
fromUrl(false);
loadWrong();
