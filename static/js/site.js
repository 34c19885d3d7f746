// The pages' small behaviours, attached here rather than in inline handlers (the Content-Security-Policy of
// base/csp.py allows no inline script). Each is named by a data-* attribute in the templates and
// delegated from the document, so it also works on content htmx swaps in later.
(function () {
  "use strict";

  // The phone's menu (<button data-bs-toggle="collapse" data-bs-target="#main-nav">): the one behaviour of Bootstrap's
  // script the pages used, here instead of its 80 KB bundle; Bootstrap's CSS hides .collapse without .show.
  document.addEventListener("click", function (event) {
    var toggle = event.target.closest ? event.target.closest('[data-bs-toggle="collapse"]') : null;
    var menu = toggle ? document.querySelector(toggle.getAttribute("data-bs-target")) : null;
    if (menu) {
      var open = menu.classList.toggle("show");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      toggle.classList.toggle("collapsed", !open);
    }
  });

  // <select data-submit-on-change>: choosing submits its form (the language, the regulation's preset).
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches && select.matches("select[data-submit-on-change]") && select.form) {
      select.form.submit();
    }
  });

  // <form data-never-submit>: a form that only holds the values htmx requests include (the table screen's
  // controls); Enter in one of its fields must not post it as a page.
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-never-submit]")) {
      event.preventDefault();
    }
  });

  // <input type="checkbox" data-select-all="NAME">: checks or clears every checkbox named NAME (the organizer's
  // bulk decisions on applications).
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box.matches && box.matches("input[data-select-all]")) {
      var name = box.getAttribute("data-select-all");
      document.querySelectorAll('input[type="checkbox"][name="' + name + '"]').forEach(function (other) {
        other.checked = box.checked;
      });
    }
  });

  // The judge's table screen: only the options of the chosen tap mode are shown (<... data-for-mode="foul">);
  // without this script every option stays visible and works.
  function showModeOptions(root) {
    var form = root.querySelector ? root.querySelector("#controls") : null;
    if (!form) {
      return;
    }
    var checked = form.querySelector('input[name="action"]:checked');
    var mode = checked ? checked.value : "";
    form.querySelectorAll("[data-for-mode]").forEach(function (element) {
      element.hidden = element.getAttribute("data-for-mode").split(" ").indexOf(mode) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches('#controls input[name="action"]')) {
      showModeOptions(document);
    }
  });
  document.addEventListener("DOMContentLoaded", function () { showModeOptions(document); });
  document.addEventListener("htmx:afterSwap", function () { showModeOptions(document); });

  // <div data-timer>: the judge's speech timer (60 s, 30 s); warns at data-warn-at seconds (colour and a short
  // vibration where the phone has one) and at the end. Outside the swapped screen, so taps do not reset it.
  (function () {
    var left = 0, running = null;
    function timer() { return document.querySelector("[data-timer]"); }
    function paint() {
      var element = timer();
      if (!element) { return; }
      var display = element.querySelector("[data-timer-display]");
      var warnAt = parseInt(element.getAttribute("data-warn-at") || "10", 10);
      display.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      display.classList.toggle("text-warning", left > 0 && left <= warnAt);
      display.classList.toggle("text-danger", left === 0 && running === null && element.dataset.ran === "1");
    }
    function tick() {
      left = Math.max(0, left - 1);
      var element = timer();
      var warnAt = element ? parseInt(element.getAttribute("data-warn-at") || "10", 10) : 10;
      if ((left === warnAt || left === 0) && navigator.vibrate) { navigator.vibrate(left === 0 ? 600 : 200); }
      if (left === 0) { window.clearInterval(running); running = null; }
      paint();
    }
    function startFor(seconds) {
      left = seconds;
      timer().dataset.ran = "1";
      if (running !== null) { window.clearInterval(running); }
      running = window.setInterval(tick, 1000);
      paint();
    }
    // "Speaking" (a streamed table): the answer that marks the speaker starts their speech; the one that unmarks them
    // stops it (<div id="screen" data-speech="start|stop">). One tap instead of two, and none when refused.
    document.addEventListener("htmx:afterSwap", function () {
      var screen = document.querySelector("#screen[data-speech]");
      if (!screen || !timer()) { return; }
      if (screen.getAttribute("data-speech") === "start") {
        startFor(parseInt(document.querySelector("[data-timer-start]").getAttribute("data-timer-start"), 10));
      } else {
        if (running !== null) { window.clearInterval(running); running = null; }
        left = 0;
        paint();
      }
    });
    document.addEventListener("click", function (event) {
      var start = event.target.closest ? event.target.closest("[data-timer-start]") : null;
      var pause = event.target.closest ? event.target.closest("[data-timer-pause]") : null;
      if (start) {
        startFor(parseInt(start.getAttribute("data-timer-start"), 10));
      } else if (pause) {
        if (running !== null) { window.clearInterval(running); running = null; }
        else if (left > 0) { running = window.setInterval(tick, 1000); }
        paint();
      }
    });
  })();

  // <button data-print>: prints the page (the printable sheets).
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-print]") : null;
    if (button) {
      window.print();
    }
  });

  // data-hx-trigger="every …" with data-poll-only-visible: a phone whose page is in the background does not poll.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (element && element.hasAttribute("data-poll-only-visible") && document.visibilityState !== "visible") {
      event.preventDefault();
    }
  });

  // ... and when the page comes back into view (the phone unlocked, the tab chosen again: "visibilitychange"), each
  // such block is refreshed at once ("visible-again" in its data-hx-trigger), not at its next poll up to 20 s later:
  // a player looking at the standings again sees them as they are now.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("[data-poll-only-visible]"), function (element) {
      window.htmx.trigger(element, "visible-again");
    });
  });

  // data-poll-paused-while-open: a polled block does not refresh while a <details> in it is open or one of its fields
  // has the focus (the desk's "send back with a comment": the comment being typed is not wiped out).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (element && element.hasAttribute("data-poll-paused-while-open") &&
        (element.querySelector("details[open]") || element.contains(document.activeElement) &&
         document.activeElement.matches("textarea, input, select"))) {
      event.preventDefault();
    }
  });

  // input[maxlength], textarea[maxlength]: a browser cuts a longer text (a paste) without a word, and the server would
  // never see what was lost. The limit moves to data-limit and a line under the field says how many characters are
  // left from 80 % of it on, and by how many a text is too long; the server refuses such a text naming its field.
  // The words come from #text-limits (base.html).
  function limits(root) {
    var words = document.getElementById("text-limits");
    var scope = root.querySelectorAll ? root : document;
    if (!words) { return; }
    Array.prototype.forEach.call(scope.querySelectorAll("input[maxlength], textarea[maxlength]"), function (field) {
      var limit = parseInt(field.getAttribute("maxlength"), 10);
      if (!(limit > 0)) { return; }
      field.removeAttribute("maxlength");
      field.setAttribute("data-limit", String(limit));
      var line = document.createElement("div");
      line.className = "form-text text-limit";
      line.id = (field.id || field.name || "field") + "-limit-" + Math.random().toString(36).slice(2, 8);
      line.setAttribute("aria-live", "polite");
      line.hidden = true;
      field.insertAdjacentElement("afterend", line);
      field.setAttribute("aria-describedby",
                         ((field.getAttribute("aria-describedby") || "") + " " + line.id).trim());
      field.limitLine = line;
      said(field);
    });
  }
  function said(field) {
    var words = document.getElementById("text-limits"), line = field.limitLine;
    // counted as the server counts it: without the spaces at either end
    var limit = parseInt(field.getAttribute("data-limit"), 10), length = field.value.trim().length;
    if (!words || !line) { return; }
    line.hidden = length < limit * 0.8;
    var over = length > limit;
    line.classList.toggle("text-danger", over);
    line.textContent = window.interpolate(over ? words.dataset.over : words.dataset.left,
                                          {n: over ? length - limit : limit - length, limit: limit});
  }
  document.addEventListener("input", function (event) {
    if (event.target.limitLine) { said(event.target); }
  });
  document.addEventListener("DOMContentLoaded", function () { limits(document); });
  document.addEventListener("htmx:load", function (event) { limits(event.target); });

  // [data-percent]: a progress bar's width (the seating job), set through the CSSOM, which the policy allows.
  function widths(root) {
    var bars = (root.querySelectorAll ? root : document).querySelectorAll("[data-percent]");
    if (root.matches && root.matches("[data-percent]")) {
      bars = [root].concat(Array.prototype.slice.call(bars));
    }
    Array.prototype.forEach.call(bars, function (bar) {
      var percent = Math.max(0, Math.min(100, parseFloat(bar.getAttribute("data-percent")) || 0));
      bar.style.width = percent + "%";
    });
  }
  widths(document);
  document.addEventListener("htmx:load", function (event) { widths(event.target); });
})();
