// firefight web: the scripts' sentences in the page's language (docs/languages.md). The page hands the
// translations of the scripts' messages in <script id="i18n">; tr("English {name}", {name})
// looks a message up by its English text (the catalogue's msgid) and fills its placeholders.
"use strict";

const I18N = (() => {
  const node = document.getElementById("i18n");
  return node ? JSON.parse(node.textContent) : {};
})();

function tr(message, params) {
  const text = Object.prototype.hasOwnProperty.call(I18N, message) ? I18N[message] : message;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

// An identifier a page shows (an outcome's code, a value in a trace) in words: the page's label
// for it (in its language) if it has one, else its English words (force_march -> force march).
const IDENTIFIER = /\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b/g;

function wordsOf(text, labels) {
  return String(text).replace(IDENTIFIER, (id) =>
    (labels && Object.prototype.hasOwnProperty.call(labels, id)) ? labels[id] : tr(id.replace(/_/g, " ")));
}

// An outcome's code as a player reads it: its label, else its ";"-joined parts each in words (a
// part "name=value" as the name's words and the value), joined by commas.
function outcomeLabel(code, labels) {
  if (labels && Object.prototype.hasOwnProperty.call(labels, code)) return labels[code];
  const parts = String(code).split(/\s*;\s*/).filter(Boolean).map((part) => {
    const at = part.indexOf("=");
    return at < 0 ? wordsOf(part, labels) : `${wordsOf(part.slice(0, at), labels)} ${part.slice(at + 1)}`;
  });
  return parts.length ? parts.join(", ") : String(code);
}
