// The line-up on the judge's table screen (games/templates/games/_screen.html, #roles-form), by tapping: a role of
// the palette, then its seats. Each seat tapped gets the chosen role (tapped again, it is a civilian again); once a
// role has all its seats the next one is chosen by itself, so the regulation's special roles are given in order,
// one tap a seat. The seats' selects stay the form's fields (and the whole line-up without this script). Every seat
// left without a role is saved as a civilian. The line-up being made is kept on the phone until it is saved, so a
// reload or a refused save loses nothing.
(function () {
  "use strict";

  var PREFIX = "mafia-table-lineup:";

  function form() { return document.getElementById("roles-form"); }
  function key() { return PREFIX + window.location.pathname; }
  function select(f, seat) { return f.querySelector('select[name="s' + seat + '_role"]'); }

  function counts(f) {
    var found = {};
    f.querySelectorAll('select[name$="_role"]').forEach(function (field) {
      found[field.value] = (found[field.value] || 0) + 1;
    });
    return found;
  }

  // The palette's counts (2/3), and a full role marked as done.
  function show(f) {
    var found = counts(f);
    f.querySelectorAll("#lineup-palette input[name=lineup-role]").forEach(function (input) {
      var label = f.querySelector('label[for="' + input.id + '"]');
      var count = label.querySelector("[data-lineup-count]");
      var have = found[input.value] || 0;
      count.textContent = have + "/" + input.dataset.want;
      count.classList.toggle("text-bg-success", have === Number(input.dataset.want));
      count.classList.toggle("text-bg-danger", have > Number(input.dataset.want));
      count.classList.toggle("text-bg-light", have < Number(input.dataset.want));
    });
  }

  function remember(f) {
    var chosen = {};
    f.querySelectorAll('select[name$="_role"], select[name$="_side"]').forEach(function (field) {
      chosen[field.name] = field.value;
    });
    window.localStorage.setItem(key(), JSON.stringify(chosen));
  }

  function nextRole(f) {
    var found = counts(f);
    var inputs = Array.prototype.slice.call(f.querySelectorAll("#lineup-palette input[name=lineup-role]"));
    var current = inputs.filter(function (input) { return input.checked; })[0];
    if (current && (found[current.value] || 0) < Number(current.dataset.want)) { return; }
    var open = inputs.filter(function (input) { return (found[input.value] || 0) < Number(input.dataset.want); })[0];
    if (open) { open.checked = true; }
  }

  function setUp() {
    var f = form();
    if (!f) {
      window.localStorage.removeItem(key()); // saved (or no longer asked for): nothing to keep
      return;
    }
    f.querySelector("#lineup-palette").hidden = false;
    var kept = null;
    try { kept = JSON.parse(window.localStorage.getItem(key()) || "null"); } catch (error) { kept = null; }
    // a line-up the server sent back refused carries the judge's choices already; a fresh form takes the kept one
    if (kept && !f.querySelector(".is-invalid")) {
      Object.keys(kept).forEach(function (name) {
        var field = f.querySelector('select[name="' + name + '"]');
        if (field && field.querySelector('option[value="' + CSS.escape(kept[name]) + '"]')) { field.value = kept[name]; }
      });
    }
    nextRole(f);
    show(f);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#roles-form [data-lineup-seat]") : null;
    if (!button) { return; }
    var f = form();
    var chosen = f.querySelector("#lineup-palette input[name=lineup-role]:checked");
    var field = select(f, button.getAttribute("data-lineup-seat"));
    if (!chosen || !field) { return; }
    field.value = field.value === chosen.value ? "civilian" : chosen.value;
    remember(f);
    nextRole(f);
    show(f);
  });

  document.addEventListener("change", function (event) {
    var f = form();
    if (f && event.target.closest && event.target.closest("#roles-form") && event.target.tagName === "SELECT") {
      remember(f);
      show(f);
    }
  });

  // Saving: every seat still without a role is a civilian (capture: before table-screen.js reads the form).
  document.addEventListener("submit", function (event) {
    var f = form();
    if (event.target !== f) { return; }
    f.querySelectorAll('select[name$="_role"]').forEach(function (field) {
      if (!field.value) { field.value = "civilian"; }
    });
    remember(f);
  }, true);

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:afterSwap", setUp);
})();
