// The judge's table screen (games/templates/games/table.html): every tap goes through one ordered queue.
//
// A tap is read whole at the moment it is made (the mode, the seat, the reason, the value, and the version of the
// protocol the judge saw) and queued on the phone, in order, per table; the queue is sent one request at a time, so
// a tap made while another is on its way waits its turn and is shown as pending (the seat is marked, the dock at
// the bottom of the screen counts them). Taps waiting together are sent together ("taps", applied by the server in
// the order made, each version-checked: games/services/table.py apply_taps). The first tap of a queue carries the
// version the screen had when it was made, each next one follows the version the one before it left, so a change
// made meanwhile on another device is never overwritten: its tap is refused, with every tap after it, and each
// refused tap is listed with the server's reason (until the judge dismisses the list; a refusal of a tap made online,
// which the judge saw as it happened, leaves once a later tap is saved, so it never stands beside the success that
// followed). The mode, the reason and the values the judge has chosen are the
// judge's: an answer redraws the screen around them, never over them.
//
// When the venue's Wi-Fi drops, nothing is lost: the queue is kept in the phone's storage, the dock says how many
// taps wait, and they are sent when the connection is back. Nothing is sent twice: a tap leaves the queue only once
// the server has answered it.
(function () {
  "use strict";

  var PREFIX = "mafia-table-queue:";
  var MOST_AT_ONCE = 200; // games/services/table.py MOST_TAPS_AT_ONCE
  // Sent alone, each as the form it comes from; every other tap is one of the taps a batch carries.
  var ALONE = { roles: true, extras: true, speaking: true, submit_ask: true, submit: true, confirm: true };
  var sending = false;
  var offline = false;

  function box() { return document.getElementById("offline-queue"); }
  function screen() { return document.getElementById("screen"); }
  function storageKey() { return PREFIX + window.location.pathname; }

  function load() {
    try {
      var queue = JSON.parse(window.localStorage.getItem(storageKey()) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (error) {
      return [];
    }
  }

  function store(queue) {
    window.localStorage.setItem(storageKey(), JSON.stringify(queue));
    show(queue);
  }

  function screenVersion() {
    var input = document.querySelector('#screen input[name="version"]');
    return input ? input.value : "";
  }

  // A tap in the judge's words, never its action's id: the element's own label (data-tap-label, its aria-label),
  // else the mode of a seat tap, else a button's text, else "a change".
  function describe(fields, mark) {
    var element = mark ? document.getElementById(mark) : null;
    var mode = document.querySelector('label[for="mode-' + (fields.action || "") + '"]');
    var text = (element && (element.getAttribute("data-tap-label") || element.getAttribute("aria-label"))) ||
      (mode ? mode.textContent.trim() : "") ||
      (element && element.tagName !== "FORM" && !fields.seat ? element.textContent.trim() : "") ||
      (box() && box().dataset.unnamed) || "";
    return fields.seat ? text + " · " + fields.seat : text;
  }

  // The dock: how many taps wait (and, offline, which), and the taps refused since the judge last dismissed them.
  function show(queue) {
    var element = box();
    if (!element) { return; }
    var count = element.querySelector("[data-count]");
    var list = element.querySelector("[data-pending]");
    var template = offline ? element.dataset.waiting : element.dataset.sending;
    count.textContent = window.interpolate(template, {count: queue.length});
    list.textContent = "";
    if (offline) {
      queue.forEach(function (item) {
        var li = document.createElement("li");
        li.textContent = item.label;
        list.appendChild(li);
      });
    }
    count.hidden = queue.length === 0;
    // offline, one line with the count; the list only when asked for (the toggle), so the seats stay in reach
    var toggle = element.querySelector("[data-toggle-pending]");
    toggle.hidden = !offline || queue.length === 0;
    if (toggle.hidden) { openList(false); }
    // the last answer's message speaks of the screen before the connection dropped: out of the way while taps wait
    document.getElementById("table-dock").classList.toggle("dock-offline", offline && queue.length > 0);
    element.classList.toggle("alert-warning", offline);
    element.classList.toggle("alert-light", !offline);
    // the list's own element (the dock itself carries data-refused, the refusal's words: a pending tap is no refusal)
    var anyRefused = !!element.querySelector("ul[data-refused] li");
    element.querySelector("[data-dismiss-refused]").hidden = !anyRefused;
    element.hidden = queue.length === 0 && !anyRefused;
    markPending(queue);
  }

  function openList(open) {
    var toggle = box().querySelector("[data-toggle-pending]");
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? toggle.dataset.hide : toggle.dataset.show;
    document.getElementById("offline-pending").hidden = !open;
  }

  // Each element a waiting tap was made on (a seat, a phase or winner button) shows how many wait on it.
  function markPending(queue) {
    var counts = {};
    queue.forEach(function (item) {
      if (item.mark) { counts[item.mark] = (counts[item.mark] || 0) + 1; }
    });
    document.querySelectorAll("#screen [data-pending]").forEach(function (element) {
      if (!counts[element.id]) { element.removeAttribute("data-pending"); }
    });
    Object.keys(counts).forEach(function (id) {
      var element = document.getElementById(id);
      if (element) { element.setAttribute("data-pending", String(counts[id])); }
    });
  }

  // kept: a tap made offline or refused because the protocol changed elsewhere, which the judge did not see refused
  // as it was made; it stays until dismissed.
  function refused(label, reason, kept) {
    var element = box();
    if (!element) { return; }
    var li = document.createElement("li");
    li.textContent = window.interpolate(element.dataset.refused, {tap: label, reason: reason});
    if (kept) { li.setAttribute("data-kept", ""); }
    element.querySelector("[data-refused]").appendChild(li);
  }

  function enqueue(fields, mark) {
    var queue = load();
    // the first waiting tap is checked against the version the screen had; the next ones follow the server's
    fields.version = queue.length ? "" : (fields.version || screenVersion());
    queue.push({ id: Date.now() + "-" + Math.random(), fields: fields, label: describe(fields, mark), mark: mark || "",
                 offline: offline });
    store(queue);
    send();
  }

  function controlValues() {
    var values = {};
    var form = document.getElementById("controls");
    if (form) {
      new FormData(form).forEach(function (value, name) { values[name] = String(value); });
    }
    delete values.version;
    return values;
  }

  // A second tap of the same seat in the same mode this soon is the finger's double tap on glass, not a second
  // foul or vote: a judge's taps on different seats come 50-100 ms apart, a deliberate second tap of one seat later.
  var DOUBLE_TAP_MS = 350;
  var lastSeatTap = { key: "", at: 0 };

  // A tap on a seat or a button: what it does is read now, with the mode and options chosen now.
  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("#screen [data-tap]") : null;
    if (!target || target.disabled) { return; }
    event.preventDefault();
    var fields = JSON.parse(target.getAttribute("data-tap"));
    if (target.hasAttribute("data-tap-controls")) {
      fields = Object.assign(controlValues(), fields);
    }
    if (fields.seat) {
      // another value (an SP changed by its chip, another vote count) is a deliberate tap, however soon
      var key = [fields.action, fields.seat, fields.value || "", fields.count || ""].join(":");
      var now = Date.now();
      var twice = key === lastSeatTap.key && now - lastSeatTap.at < DOUBLE_TAP_MS;
      lastSeatTap = { key: key, at: now };
      if (twice) { return; }
    } else {
      lastSeatTap = { key: "", at: 0 };
    }
    enqueue(fields, target.id);
    // what the controls do after a tap (the reason used up, the phase's mode and circle): table-controls.js
    document.dispatchEvent(new CustomEvent("table:tapped", { detail: fields }));
  });

  // A quick value (the SP chips): puts its value in the mode's field; the next seat tapped takes it.
  document.addEventListener("click", function (event) {
    var chip = event.target.closest ? event.target.closest("#controls [data-set-value]") : null;
    var field = document.querySelector('#controls input[name="value"]');
    if (!chip || !field) { return; }
    field.value = chip.getAttribute("data-set-value");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    document.querySelectorAll("#controls [data-set-value]").forEach(function (other) {
      other.classList.toggle("active", other === chip);
    });
  });

  // A vote count (the game log's chips, by day): the count for the next seat tapped, in the «Votes» mode.
  document.addEventListener("click", function (event) {
    var chip = event.target.closest ? event.target.closest("#controls [data-set-count]") : null;
    var field = document.querySelector('#controls input[name="count"]');
    var radio = document.getElementById("mode-votes");
    if (!chip || !field || !radio) { return; }
    field.value = chip.getAttribute("data-set-count");
    document.querySelectorAll("#controls [data-set-count]").forEach(function (other) {
      other.classList.toggle("active", other === chip);
    });
    if (!radio.checked) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // A form of the screen (the line-up, the extra points, the submission): its fields as they are now.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#screen form[data-tap-form]")) { return; }
    event.preventDefault();
    var fields = {};
    new FormData(form, event.submitter || undefined).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { fields[name] = String(value); }
    });
    enqueue(fields, form.id);
  });

  function csrfToken() {
    var input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    if (input) { return input.value; }
    try {
      return JSON.parse(document.body.getAttribute("data-hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // What the judge has chosen or is typing, kept across an answer: the controls, the open sections, a form being
  // filled (not the one just answered), and the field being typed in.
  function keep(current, answered) {
    var kept = { fields: [], open: {}, focus: null };
    current.querySelectorAll("details[id]").forEach(function (details) { kept.open[details.id] = details.open; });
    current.querySelectorAll("form[id] [name]").forEach(function (field) {
      var form = field.form;
      if (!form || form.id === answered || field.type === "hidden" || field.name === "csrfmiddlewaretoken") {
        return;
      }
      var entry = { form: form.id, name: field.name, value: field.value };
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked === field.defaultChecked && form.id !== "controls") { return; }
        entry.checked = field.checked;
      } else if (field.tagName === "SELECT") {
        var chosen = field.options[field.selectedIndex];
        if (form.id !== "controls" && (!chosen || chosen.defaultSelected)) { return; }
      } else if (field.value === field.defaultValue && form.id !== "controls") {
        return;
      }
      kept.fields.push(entry);
    });
    var active = document.activeElement;
    if (active && active.form && active.form.id && active.name && current.contains(active)) {
      kept.focus = { form: active.form.id, name: active.name, start: active.selectionStart, end: active.selectionEnd };
    }
    return kept;
  }

  function restore(fresh, kept) {
    Object.keys(kept.open).forEach(function (id) {
      var details = fresh.querySelector("details#" + id);
      if (details) { details.open = kept.open[id]; }
    });
    kept.fields.forEach(function (entry) {
      var form = fresh.querySelector("form#" + entry.form);
      if (!form) { return; }
      form.querySelectorAll('[name="' + entry.name + '"]').forEach(function (field) {
        if (field.type === "radio" || field.type === "checkbox") {
          if (field.value === entry.value) { field.checked = entry.checked; }
        } else if (field.tagName !== "SELECT" || field.querySelector('option[value="' + CSS.escape(entry.value) + '"]')) {
          field.value = entry.value;
        }
      });
    });
    // a choice whose kept option is gone (the mafia's shot once no black player is left) falls back to the default
    fresh.querySelectorAll("#controls input[type=radio]").forEach(function (radio) {
      var group = fresh.querySelectorAll('#controls input[type=radio][name="' + radio.name + '"]');
      var any = Array.prototype.some.call(group, function (r) { return r.checked; });
      if (!any && radio.defaultChecked) { radio.checked = true; }
    });
    if (kept.focus) {
      var form = fresh.querySelector("form#" + kept.focus.form);
      var field = form ? form.querySelector('[name="' + kept.focus.name + '"]:not([type="radio"])') : null;
      if (field) {
        field.focus({ preventScroll: true });
        if (kept.focus.start !== null && typeof field.setSelectionRange === "function") {
          try { field.setSelectionRange(kept.focus.start, kept.focus.end); } catch (error) { /* not a text field */ }
        }
      }
    }
  }

  // The answer's messages go to the dock at the bottom of the screen, where the judge's thumb is.
  function dockMessages(fresh) {
    var slot = document.getElementById("dock-messages");
    if (!slot) { return; }
    slot.textContent = "";
    ["#screen-error", "#screen-said"].forEach(function (selector) {
      var message = fresh.querySelector(selector);
      if (message) { slot.appendChild(message); }
    });
  }

  function swapIn(html, answered) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById("screen");
    var current = screen();
    if (!fresh || !current) { return null; }
    var kept = keep(current, answered);
    current.replaceWith(fresh);
    restore(fresh, kept);
    dockMessages(fresh);
    document.dispatchEvent(new CustomEvent("htmx:afterSwap")); // site.js: the mode's options, the speech timer
    return fresh;
  }

  function requestError(status, type, text) {
    var slot = document.getElementById("request-error");
    if (!slot) { return; }
    slot.textContent = type.indexOf("text/plain") === 0 && text ? text
      : window.interpolate(slot.dataset.failed, {status: status});
    slot.hidden = false;
  }

  // An answer never replaces the screen under the judge's finger: a tap pressed on a seat or a button that the
  // swap replaced before it was released would never become a click (its press and release on two different
  // elements), and would be lost. The answer waits until the finger is lifted and its click has been handled
  // (at most a second and a half: a press that turned into a scroll may not say it ended).
  var pressed = false;
  var waiting = [];
  function release() {
    if (!pressed) { return; }
    pressed = false;
    window.setTimeout(function () {
      var callbacks = waiting;
      waiting = [];
      callbacks.forEach(function (callback) { callback(); });
    }, 0);
  }
  function whenReleased(callback) {
    if (!pressed) { callback(); return; }
    waiting.push(callback);
    window.setTimeout(release, 1500);
  }
  document.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("#screen")) { pressed = true; }
  }, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);

  function batchOf(queue) {
    if (ALONE[queue[0].fields.action]) { return queue.slice(0, 1); }
    var n = 0;
    while (n < queue.length && n < MOST_AT_ONCE && !ALONE[queue[n].fields.action]) { n += 1; }
    return queue.slice(0, n);
  }

  function bodyOf(batch) {
    var first = Object.assign({}, batch[0].fields);
    if (!first.version) { first.version = screenVersion(); } // the version the taps before it left
    if (ALONE[first.action]) { return new URLSearchParams(first).toString(); }
    var taps = batch.map(function (item, i) { return i === 0 ? first : item.fields; });
    return new URLSearchParams({ taps: JSON.stringify(taps) }).toString();
  }

  function send() {
    var queue = load();
    if (sending || !queue.length) { return; }
    if (!navigator.onLine) { offline = true; show(queue); return; }
    sending = true;
    var batch = batchOf(queue);
    var sent = {};
    batch.forEach(function (item) { sent[item.id] = true; });
    fetch(window.location.pathname, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(),
                 "Content-Type": "application/x-www-form-urlencoded" },
      body: bodyOf(batch)
    }).then(function (response) {
      return response.text().then(function (text) {
        return { ok: response.ok, status: response.status, type: response.headers.get("Content-Type") || "",
                 text: text };
      });
    }).then(function (answer) {
      return new Promise(function (resolve) { whenReleased(function () { resolve(answer); }); });
    }).then(function (answer) {
      offline = false;
      var rest = load().filter(function (item) { return !sent[item.id]; });
      var fresh = answer.ok ? swapIn(answer.text, batch[0].mark) : null;
      if (!fresh) {
        requestError(answer.status, answer.type, answer.text); // nothing of this batch was saved
      } else {
        var errorSlot = document.getElementById("request-error");
        if (errorSlot) { errorSlot.hidden = true; }
        var reasons = JSON.parse(fresh.getAttribute("data-refused") || "[]");
        var conflict = document.querySelector("#screen-error[data-conflict]");
        if (box() && !reasons.length && !conflict && !document.querySelector("#dock-messages #screen-error")) {
          box().querySelectorAll("ul[data-refused] li:not([data-kept])").forEach(function (li) { li.remove(); });
        }
        // a tap sent alone as it was made is refused in the dock's message itself: listed again, it said it twice
        var alone = batch.length === 1 && !batch[0].offline && document.querySelector("#dock-messages #screen-error");
        reasons.forEach(function (pair) {
          var tap = batch[pair[0]];
          if (tap && !alone) { refused(tap.label, pair[1], tap.offline); }
        });
        if (conflict) {
          // changed on another device meanwhile: the taps made on the old state are not applied on the new one
          if (ALONE[batch[0].fields.action]) { refused(batch[0].label, conflict.textContent.trim(), true); }
          rest.forEach(function (later) { refused(later.label, conflict.textContent.trim(), true); });
          rest = [];
        }
      }
      store(rest);
      sending = false;
      send();
    }).catch(function () {
      sending = false; // still offline: sent again when the connection is back
      offline = true;
      // the Wi-Fi dropped without the browser saying so: these taps wait as offline ones, and a refusal of one
      // later stays listed until dismissed (the judge did not see it happen)
      store(load().map(function (item) { item.offline = true; return item; }));
    });
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest ? event.target.closest("[data-toggle-pending]") : null;
    if (toggle) { openList(toggle.getAttribute("aria-expanded") !== "true"); }
  });

  document.addEventListener("click", function (event) {
    var dismiss = event.target.closest ? event.target.closest("[data-dismiss-refused]") : null;
    if (!dismiss) { return; }
    box().querySelector("[data-refused]").textContent = "";
    show(load());
  });

  window.addEventListener("online", function () { offline = false; send(); });
  window.addEventListener("offline", function () { offline = true; show(load()); });
  window.setInterval(send, 5000);
  document.addEventListener("DOMContentLoaded", function () {
    var current = screen();
    if (current) { dockMessages(current); }
    offline = !navigator.onLine;
    show(load());
    send();
  });
})();
