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
