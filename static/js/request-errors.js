// An htmx request that fails is not swapped in (htmx keeps the page as it was, so a judge's screen keeps
// its state and the tap can be repeated); this says so in #request-error. A plain-text answer (a 503 while
// the database is unavailable) is shown as it is; otherwise the element's translated data-* messages.
(function () {
  "use strict";
  function slot() { return document.getElementById("request-error"); }
  function show(text) {
    var box = slot();
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
  }
  document.addEventListener("htmx:responseError", function (event) {
    var box = slot(), xhr = event.detail.xhr;
    if (!box) { return; }
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("text/plain") === 0 && xhr.responseText) {
      show(xhr.responseText);
    } else {
      show(window.interpolate(box.dataset.failed, {status: xhr.status}));
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    var box = slot();
    if (box && !(event.detail && event.detail.queued)) { show(box.dataset.offline); } // queued: table-offline.js
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = slot();
    if (box && event.detail.successful) { box.hidden = true; }
  });
})();
