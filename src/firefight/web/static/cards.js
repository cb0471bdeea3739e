// The card table (web/cards.py): the form is the one truth and works without this script (a
// card is a submit button, the form goes by GET). Here a click plays a card in the form's
// play field, and the page is fetched again with the form's address and swapped in place; an
// action's button (Advise) is sent with the form, its answer shown beside the odds.
"use strict";

(() => {
  const form = document.getElementById("card-form");
  if (!form) return;
  const playField = form.elements.namedItem(form.dataset.playField);
  let asked = 0;

  function toggled(text, number) {
    const entries = text.split(",").map((n) => n.trim()).filter((n) => n);
    const kept = entries.filter((n) => n !== number);
    return (kept.length < entries.length ? kept : [...entries, number]).join(",");
  }

  async function refresh(submitter) {
    // an action's button (Advise) sends its name with the form, as it does without a script
    const query = new URLSearchParams(new FormData(form, submitter || undefined)).toString();
    const mine = ++asked;
    const odds = document.getElementById("card-odds");
    if (odds) odds.classList.add("stale");
    const response = await fetch(`${location.pathname}?${query}`, { headers: { Accept: "text/html" } });
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    if (mine !== asked) return; // a later click's answer is on its way
    const fresh = page.getElementById("card-table");
    if (!fresh) {
      location.href = `${location.pathname}?${query}`; // an error page: show it whole
      return;
    }
    document.getElementById("card-table").replaceWith(fresh);
    history.replaceState(null, "", `${location.pathname}?${query}`);
  }

  form.addEventListener("click", (event) => {
    const card = event.target.closest("button.action-card");
    if (!card || !playField) return;
    event.preventDefault();
    playField.value = toggled(playField.value, card.dataset.card);
    refresh();
  });
  form.addEventListener("change", (event) => {
    if (event.target.closest(".card-fields")) refresh();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter;
    refresh(button && button.name === "action" ? button : null);
  });
})();
