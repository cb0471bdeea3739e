// firefight web: a player's data file (a deck, personality cards) typed entry by entry. The
// entries are kept in this browser (localStorage); the server's check (the file's own, that
// of `firefight deck check`) says what is wrong with the entry being typed and with the file,
// and writes the file's TOML for the download. An uploaded file is read back into entries.
"use strict";

(() => {
  const page = JSON.parse(document.getElementById("editor-page").textContent);
  const STORE = `firefight-editor:${page.ruleset}/${page.field}`;
  const form = document.getElementById("entry-form");
  const $ = (id) => document.getElementById(id);
  const COLOURED = /^[0-9][br]$/;

  function load() {
    try {
      const kept = JSON.parse(localStorage.getItem(STORE) || "null");
      if (kept && Array.isArray(kept.entries)) return kept;
    } catch (error) { /* a damaged store: start again */ }
    return { title: page.title, entries: [], extra: {} };
  }
  let state = load();
  const save = () => localStorage.setItem(STORE, JSON.stringify(state));

  // A coloured number as the file writes it: a digit alone is black ("4" is "4b").
  function coloured(text) {
    const value = text.trim().toLowerCase();
    return /^[0-9]$/.test(value) ? `${value}b` : value;
  }

  function controls(name) { return [...form.querySelectorAll(`[name="${name}"]`)]; }

  function readForm() {
    const entry = {};
    for (const field of page.fields) {
      const found = controls(field.name);
      if (field.kind === "flag") entry[field.name] = found[0].checked;
      else if (field.kind === "coloured_row") entry[field.name] = found.map((c) => coloured(c.value));
      else if (field.kind === "coloured") entry[field.name] = coloured(found[0].value);
      else entry[field.name] = found[0].value.trim();
    }
    return entry;
  }

  function fillForm(entry) {
    for (const field of page.fields) {
      const found = controls(field.name);
      const value = entry[field.name];
      if (field.kind === "flag") found[0].checked = value === true;
      else if (field.kind === "coloured_row") found.forEach((c, i) => { c.value = (value || [])[i] || ""; });
      else found[0].value = value === undefined || value === null ? "" : String(value);
    }
    paint();
  }

  // Light checks as typed: a coloured number must be a digit and r or b.
  function paint() {
    for (const input of form.querySelectorAll("input.coloured")) {
      const value = coloured(input.value);
      input.classList.toggle("red", value.endsWith("r"));
      input.setAttribute("aria-invalid", String(Boolean(input.value.trim()) && !COLOURED.test(value)));
    }
  }

  async function check(body) {
    const response = await fetch(page.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) return { error: data.detail || String(response.status) };
    return data;
  }

  function listProblems(list, problems) {
    list.replaceChildren(...problems.map((p) => {
      const item = document.createElement("li");
      item.textContent = p.message;
      item.dataset.field = p.field;
      return item;
    }));
  }

  function empty(value) {
    if (Array.isArray(value)) return !value.some(Boolean);
    return value === undefined || value === null || value === "" || value === false;
  }

  function keyOf(entry) { return String(entry[page.key] || "").trim(); }

  // The entry being typed, checked alone: its own problems (not the file's counts), and its
  // key given twice.
  async function checkDraft(whole) {
    const draft = readForm();
    const answer = await check({ entries: [draft], title: state.title, partial: true });
    if (answer.error) return [{ message: answer.error, field: "" }];
    // While typing, a field not typed yet is no problem yet; Enter shows them all.
    const typed = (p) => whole || !p.missing || !empty(draft[p.field]);
    const problems = answer.problems.filter((p) => p.index === 0 && typed(p));
    const key = keyOf(draft);
    if (key && state.entries.some((e) => keyOf(e) === key)) {
      problems.push({ field: page.key, message: tr("{key} {value} is already in the file", { key: page.key, value: key }) });
    }
    return problems;
  }

  let typing = null;
  form.addEventListener("input", () => {
    paint();
    clearTimeout(typing);
    typing = setTimeout(async () => listProblems($("draft-problems"), await checkDraft()), 300);
  });

  // Enter adds the entry from any field (a select or a checkbox too); a button keeps its own.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.tagName !== "BUTTON") {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearTimeout(typing);
    const problems = await checkDraft(true);
    listProblems($("draft-problems"), problems);
    if (problems.length) {
      const first = form.querySelector(`[name="${problems[0].field.split(/[.[]/)[0]}"]`);
      (first || form.querySelector("input, select")).focus();
      return;
    }
    const added = readForm();
    state.entries.push(added);
    save();
    // The next entry: its number the next one, its choices (a card's kind) kept as they were.
    const kept = Object.fromEntries(page.fields.filter((f) => f.kind === "choice").map((f) => [f.name, added[f.name]]));
    fillForm(kept);
    if (page.key === "number") controls(page.key)[0].value = nextNumber();
    form.querySelector("input, select").focus();
    await refresh();
  });

  $("clear-entry").addEventListener("click", () => { fillForm({}); listProblems($("draft-problems"), []); });

  function describe(entry) {
    return page.fields
      .filter((f) => f.name !== page.key)
      .map((f) => {
        const value = entry[f.name];
        if (f.kind === "flag") return value ? f.label : "";
        if (Array.isArray(value)) return value.some(Boolean) ? `${f.label} ${value.join(" ")}` : "";
        return value ? `${f.label} ${value}` : "";
      })
      .filter(Boolean)
      .join(" · ");
  }

  function nextNumber() {
    return String(Math.max(0, ...state.entries.map((e) => Number(e.number) || 0)) + 1);
  }

  function button(text, name, action) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = `secondary ${name}`;
    made.textContent = text;
    made.addEventListener("click", action);
    return made;
  }

  function render(answer) {
    $("file-title").value = state.title;
    const rows = state.entries.map((entry, i) => {
      const row = document.createElement("tr");
      row.className = "entry";
      const key = document.createElement("td");
      key.textContent = keyOf(entry);
      const held = document.createElement("td");
      held.textContent = describe(entry);
      const own = answer && !answer.error ? answer.problems.filter((p) => p.index === i) : [];
      if (own.length) {
        row.classList.add("has-problem");
        const list = document.createElement("ul");
        listProblems(list, own);
        held.append(list);
      }
      const tools = document.createElement("td");
      tools.append(
        button(tr("edit"), "edit", () => { fillForm(entry); state.entries.splice(i, 1); save(); refresh(); }),
        " ",
        button(tr("remove"), "remove", () => { state.entries.splice(i, 1); save(); refresh(); }),
      );
      row.append(key, held, tools);
      return row;
    });
    $("entries").querySelector("tbody").replaceChildren(...rows);
    if (!answer) return;
    if (answer.error) { listProblems($("file-problems"), [{ message: answer.error, field: "" }]); return; }
    listProblems($("file-problems"), answer.problems.filter((p) => p.index === null));
    const counts = Object.entries(answer.counts)
      .map(([kind, n]) => (kind in answer.expected ? `${kind} ${n}/${answer.expected[kind]}` : `${kind} ${n}`))
      .join(", ");
    $("file-summary").textContent = tr("{count} in the file", { count: state.entries.length }) + (counts ? ` (${counts})` : "");
  }

  async function refresh() {
    render(null);
    if (!state.entries.length) { render({ problems: [], counts: {}, expected: {} }); return null; }
    const answer = await check({ entries: state.entries, title: state.title, extra: state.extra, partial: true });
    render(answer);
    return answer;
  }

  $("file-title").addEventListener("change", () => { state.title = $("file-title").value; save(); });

  $("download").addEventListener("click", async () => {
    const answer = await check({ entries: state.entries, title: state.title, extra: state.extra, partial: true });
    if (answer.error) { render(answer); return; }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([answer.text], { type: "application/toml" }));
    link.download = `${page.field}.toml`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });

  $("upload").addEventListener("change", async (event) => {
    const chosen = event.target.files[0];
    if (!chosen) return;
    const answer = await check({ text: await chosen.text(), partial: true });
    event.target.value = "";
    if (answer.error) { render(answer); return; }
    state = { title: answer.title, entries: answer.entries, extra: answer.extra };
    save();
    render(answer);
  });

  $("forget").addEventListener("click", () => {
    state = { title: page.title, entries: [], extra: {} };
    localStorage.removeItem(STORE);
    refresh();
  });

  if (page.key === "number" && !controls(page.key)[0].value) controls(page.key)[0].value = nextNumber();
  refresh();
})();
