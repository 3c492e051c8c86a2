// The replay page: moves between the steps computed at export time (nothing is recomputed here).
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("tabletape-data").textContent);
  const steps = data.steps;
  const told = document.getElementById("told");
  const view = document.getElementById("view");
  const board = document.getElementById("board");
  const position = document.getElementById("position");
  const logBox = document.getElementById("log");
  const logItems = Array.from(document.querySelectorAll(".log li[data-seq]"));
  const turnLinks = Array.from(document.querySelectorAll(".turns a[data-seq]"));
  const turnStarts = turnLinks.map((link) => Number(link.dataset.seq) - 1);
  let current = -1;

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({
      "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" }[c]));
  }

  function block(number, joint) {
    return data.blocks[number].map((line) => data.lines[line]).join(joint);
  }

  // The same markup as page.py told_html.
  function toldHtml(step) {
    const undone = step.undone ? `<p class="undone-by">${escapeHtml(step.undone)}</p>` : "";
    const notes = step.notes.map((note) => `<p class="note">✎ ${escapeHtml(note)}</p>`).join("");
    return `<p class="where">${escapeHtml(step.where)}</p>` +
      `<p class="${step.undone ? "text undone" : "text"}" data-kind="${step.kind}">` +
      `<span class="kind">seq ${step.seq}</span> ` +
      `${escapeHtml(step.text)}</p>${undone}${notes}`;
  }

  // A picture is not shrunk below its readable width (up to MOST_SCROLLED px): a phone scrolls
  // it in its own box rather than drawing labels no one can read.
  const MOST_SCROLLED = 720;
  function readable(svg) {
    const width = svg && Number(svg.getAttribute("data-readable-width"));
    if (width) svg.style.minWidth = `${Math.min(width, MOST_SCROLLED)}px`;
  }

  function turnOf(index) {
    let found = 0;
    turnStarts.forEach((start, k) => { if (start <= index) found = k; });
    return found;
  }

  function keepInView(box, item) {
    if (!box || !item) return;
    const top = item.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  function show(index, updateHash) {
    index = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[index];
    if (index !== current) {
      told.innerHTML = toldHtml(step);
      view.innerHTML = block(step.view, "\n");
      if (step.picture >= 0) {
        board.innerHTML = block(step.picture, "");
        readable(board.querySelector("svg"));
        board.hidden = false;
      } else {
        board.hidden = true;
      }
      logBox.querySelectorAll("li[aria-current]").forEach((item) => {
        item.removeAttribute("aria-current");
      });
      if (logItems[index]) logItems[index].setAttribute("aria-current", "step");
      keepInView(logBox, logItems[index]);
      const turn = turnOf(index);
      turnLinks.forEach((link, k) => {
        if (k === turn) link.setAttribute("aria-current", "true");
        else link.removeAttribute("aria-current");
      });
      keepInView(turnLinks[turn] && turnLinks[turn].closest("ol"), turnLinks[turn]);
      position.textContent = `${index + 1} / ${steps.length}`;
      document.querySelectorAll(".controls button").forEach((button) => {
        const go = button.dataset.go;
        const atStart = go === "first" || go === "prev" || go === "prev-turn";
        button.disabled = atStart ? index === 0 : index === steps.length - 1;
      });
      current = index;
    }
    if (updateHash) history.replaceState(null, "", `#seq-${step.seq}`);
  }

  function nextTurn() {
    const found = turnStarts.find((start) => start > current);
    return found === undefined ? steps.length - 1 : found;
  }

  function previousTurn() {
    const before = turnStarts.filter((start) => start < current);
    return before.length ? before[before.length - 1] : 0;
  }

  const MOVES = {
    first: () => 0, last: () => steps.length - 1,
    prev: () => current - 1, next: () => current + 1,
    "prev-turn": previousTurn, "next-turn": nextTurn,
  };

  const KEYS = {
    ArrowRight: "next", ArrowLeft: "prev", n: "next-turn", p: "prev-turn",
    PageDown: "next-turn", PageUp: "prev-turn", Home: "first", End: "last",
  };

  function fromHash() {
    const match = /^#seq-(\d+)$/.exec(location.hash);
    if (!match) return null;
    const index = steps.findIndex((step) => step.seq === Number(match[1]));
    return index >= 0 ? index : null;
  }

  document.querySelector(".controls").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-go]");
    if (button) show(MOVES[button.dataset.go](), true);
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    const go = KEYS[event.key];
    if (!go) return;
    event.preventDefault();
    show(MOVES[go](), true);
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest('a[href^="#seq-"]');
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const index = steps.findIndex((step) => `#seq-${step.seq}` === link.getAttribute("href"));
    if (index < 0) return;
    event.preventDefault();
    show(index, true);
  });
  window.addEventListener("hashchange", () => {
    const index = fromHash();
    if (index !== null) show(index, false);
  });
  const linked = fromHash();
  show(linked === null ? data.start : linked, false);
})();
