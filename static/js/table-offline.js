// The judge's table screen when the venue's Wi-Fi drops (games/templates/games/table.html).
//
// A tap made while the phone is offline (or whose request fails to reach the server) is not lost: it is kept in
// the phone's storage, per table, in order, and the screen says how many wait (#offline-queue). When the
// connection is back they are sent one by one, in order. Each is version-checked by the server like any tap: the
// first carries the version the screen had when it was made, each next one the version the server answered to
// the previous, so a change made meanwhile on another device is never overwritten: its tap is refused, and the
// screen lists each refused tap with the server's reason. Nothing is sent twice: a tap leaves the queue only once
// the server has answered it.
(function () {
  "use strict";

  var PREFIX = "mafia-table-queue:";
  var sending = false;

  function box() { return document.getElementById("offline-queue"); }
  function storageKey() { return PREFIX + window.location.pathname; }

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(storageKey()) || "[]");
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

  function describe(fields) {
    var action = fields.action || "";
    var label = document.querySelector('label[for="mode-' + action + '"]');
    var text = label ? label.textContent.trim() : action;
    if (fields.value && !label) {
      text += " " + fields.value;
    }
    return fields.seat ? text + " · " + fields.seat : text;
  }

  function show(queue) {
    var element = box();
    if (!element) { return; }
    var count = element.querySelector("[data-count]");
    var list = element.querySelector("[data-pending]");
    count.textContent = element.dataset.waiting.replace("%(count)s", String(queue.length));
    list.textContent = "";
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = item.label;
      list.appendChild(li);
    });
    count.hidden = queue.length === 0;
    element.hidden = queue.length === 0 && !element.querySelector("[data-refused] li");
  }

  function refused(label, reason) {
    var element = box();
    if (!element) { return; }
    var li = document.createElement("li");
    li.textContent = element.dataset.refused.replace("%(tap)s", label).replace("%(reason)s", reason);
    element.querySelector("[data-refused]").appendChild(li);
    element.hidden = false;
  }

  function fieldsOf(detail) {
    var fields = {};
    var data = detail.formData || detail.parameters || {};
    if (typeof data.forEach === "function" && typeof data.entries === "function") {
      data.forEach(function (value, name) { fields[name] = String(value); });
    } else {
      Object.keys(data).forEach(function (name) { fields[name] = String(data[name]); });
    }
    return fields;
  }

  function enqueue(path, fields) {
    var queue = load();
    // the first waiting tap is checked against the version the screen had; the next ones follow the server's
    fields.version = queue.length ? "" : (fields.version || screenVersion());
    queue.push({ path: path, fields: fields, label: describe(fields) });
    store(queue);
  }

  function onTheScreen(element) {
    return element && element.closest && element.closest("#screen");
  }

  // Offline, or taps already waiting: this one waits too, after them (the order is the game's).
  document.addEventListener("htmx:configRequest", function (event) {
    if (!onTheScreen(event.detail.elt) || event.detail.verb !== "post") { return; }
    if (navigator.onLine && load().length === 0) { return; }
    event.preventDefault();
    enqueue(event.detail.path, fieldsOf(event.detail));
    send();
  });

  // Sent, but the network failed before an answer: keep it (the server never saw it, or it will refuse the
  // repeat by its version).
  document.addEventListener("htmx:sendError", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !onTheScreen(config.elt || event.detail.elt)) { return; }
    enqueue(config.path, fieldsOf(config));
    event.detail.queued = true; // request-errors.js: kept here, so no "reload the page" message
  });

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function swapIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById("screen");
    var current = document.getElementById("screen");
    if (!fresh || !current) { return null; }
    current.replaceWith(fresh);
    if (window.htmx) { window.htmx.process(fresh); }
    document.dispatchEvent(new CustomEvent("htmx:afterSwap"));
    return fresh;
  }

  function send() {
    var queue = load();
    if (sending || !queue.length || !navigator.onLine) { return; }
    sending = true;
    var item = queue[0];
    var fields = Object.assign({}, item.fields);
    if (!fields.version) { fields.version = screenVersion(); }
    fetch(item.path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(),
                 "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString()
    }).then(function (response) {
      return response.text().then(function (html) { return { ok: response.ok, html: html }; });
    }).then(function (answer) {
      var rest = load().slice(1);
      var fresh = answer.ok ? swapIn(answer.html) : null;
      var error = fresh ? fresh.querySelector("#screen-error") : null;
      if (!answer.ok || error) {
        var reason = error ? error.textContent.trim() : String(answer.html).slice(0, 200);
        refused(item.label, reason);
        if (error && error.hasAttribute("data-conflict")) {
          // changed on another device meanwhile: the taps made on the old state are not applied on the new one
          rest.forEach(function (later) { refused(later.label, reason); });
          rest = [];
        }
      }
      store(rest);
      sending = false;
      send();
    }).catch(function () {
      sending = false; // still offline: tried again when the connection is back
    });
  }

  window.addEventListener("online", send);
  window.setInterval(send, 5000);
  document.addEventListener("DOMContentLoaded", function () { show(load()); send(); });
})();
