// The controls of the judge's table screen (games/templates/games/_screen.html, #controls): what they become after
// a tap (table-screen.js says each tap it queues with a "table:tapped" event, its fields read whole), and what the
// judge chose, kept across a reload.
//
// - A reason is the one tap's: it goes back to "not chosen" once a seat tap has used it, so the next foul never
//   carries the last one's reason unseen. Taken back at once ("Take back a foul" on the same seat, the very next
//   tap: the wrong seat was tapped), the foul gives its reason back, chosen for the next foul.
// - A phase tap: a judge recording departures goes on with the one the new phase has (voted out by day, killed by
//   night), so a departure costs one tap, not two; a judge keeping the game log goes on with its first entry of the
//   new phase (nominations by day, the shot by night); the speech circle follows the day again (day N's speeches
//   are circle N, the server reads the day when it applies the tap), whatever circle was chosen by hand before.
// - The mode, the reasons, the circle, the shooter and the values chosen are kept on the phone per table, so a
//   reload (after a Wi-Fi drop or the screen's lock) comes back to them, the mode's options shown (the vote chips).
(function () {
  "use strict";

  var PREFIX = "mafia-table-controls:";
  // The select a seat tap in each mode reads its reason from (games/services/table.py REASON_FIELDS, a removal's
  // otherwise).
  var REASON_FIELDS = { foul: "reason", warn: "warning", award: "award", remove: "removal" };
  var TAKES_BACK = { unfoul: "foul", unwarn: "warn" };
  var FOLLOWS = { voted: "killed", killed: "voted", nominated: "shot", votes: "shot", shot: "nominated",
                  don_check: "nominated", sheriff_check: "nominated", heal: "nominated" };
  var lastReason = null; // the tap just made that used a reason: { action, seat, name, value }

  function controls() { return document.getElementById("controls"); }
  function field(name) { return document.querySelector('#controls [name="' + name + '"]'); }
  function key() { return PREFIX + window.location.pathname; }

  function choose(mode) {
    var radio = document.getElementById("mode-" + mode);
    if (radio && !radio.checked) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true })); // site.js shows the mode's options
    }
  }

  function followPhase() {
    var checked = document.querySelector('#controls input[name="action"]:checked');
    var other = FOLLOWS[checked ? checked.value : ""];
    if (other) { choose(other); }
    var circle = field("circle");
    if (circle) { circle.value = ""; }
  }

  function reasonUsed(fields) {
    var given = lastReason;
    lastReason = null;
    if (!fields.seat) { return; }
    var name = REASON_FIELDS[fields.action];
    var reason = name ? document.querySelector('#controls select[name="' + name + '"]') : null;
    if (reason && reason.querySelector('option[value=""]')) {
      if (fields[name]) { lastReason = { action: fields.action, seat: fields.seat, name: name, value: fields[name] }; }
      reason.value = "";
    }
    if (given && TAKES_BACK[fields.action] === given.action && String(given.seat) === String(fields.seat)) {
      var back = document.querySelector('#controls select[name="' + given.name + '"]');
      if (back && !back.value) { back.value = given.value; }
    }
  }

  function remember() {
    var form = controls();
    if (!form) { return; }
    var values = {};
    form.querySelectorAll("[name]").forEach(function (input) {
      if (input.name === "version" || ((input.type === "radio" || input.type === "checkbox") && !input.checked)) {
        return;
      }
      values[input.name] = input.value;
    });
    try { window.localStorage.setItem(key(), JSON.stringify(values)); } catch (error) { /* storage full or off */ }
  }

  function recall() {
    var form = controls();
    var values = null;
    try { values = JSON.parse(window.localStorage.getItem(key()) || "null"); } catch (error) { values = null; }
    if (!form || !values) { return; }
    form.querySelectorAll("[name]").forEach(function (input) {
      if (input.name === "version" || !Object.prototype.hasOwnProperty.call(values, input.name)) { return; }
      var value = String(values[input.name]);
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.value === value) { input.checked = true; }
      } else if (input.tagName !== "SELECT" || input.querySelector('option[value="' + CSS.escape(value) + '"]')) {
        input.value = value;
      }
    });
    // the chips show the value they gave
    var count = field("count");
    var sp = field("value");
    form.querySelectorAll("[data-set-count]").forEach(function (chip) {
      chip.classList.toggle("active", !!count && count.value !== "" && chip.getAttribute("data-set-count") === count.value);
    });
    form.querySelectorAll("[data-set-value]").forEach(function (chip) {
      chip.classList.toggle("active", !!sp && chip.getAttribute("data-set-value") === sp.value);
    });
    var checked = form.querySelector('input[name="action"]:checked');
    if (checked) { checked.dispatchEvent(new Event("change", { bubbles: true })); }
  }

  document.addEventListener("table:tapped", function (event) {
    if (event.detail.action === "phase") { followPhase(); }
    reasonUsed(event.detail);
    remember();
  });
  // a choice made by hand or by a chip (its handler, table-screen.js's, has set its field: registered first)
  ["change", "input", "click"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest("#controls")) { remember(); }
    });
  });
  window.addEventListener("pagehide", remember);
  document.addEventListener("DOMContentLoaded", recall);
})();
