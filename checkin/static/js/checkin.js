// Check-in pages (checkin/templates/checkin/phone.html, self.html): the search filters the list
// as one types (name, nickname or number; case and ё/е do not matter), and on the phone list a tap sends the
// state it asks for (present or not, never a toggle, so a repeated tap changes nothing) and moves the row
// without reloading. Without this script every tap is an ordinary form post.
(function () {
  "use strict";

  var root = document.getElementById("checkin");
  var list = document.getElementById("checkin-list");
  var search = document.getElementById("checkin-search");
  var filter = document.getElementById("checkin-filter");
  var none = document.getElementById("checkin-none");
  if (!list) { return; }
  var hideAll = list.getAttribute("data-hide-all") === "1";  // the door's page lists no one until one types

  function normalize(text) {
    return String(text).toLowerCase().replace(/ё/g, "е").replace(/\s+/g, " ").trim();
  }

  function apply() {
    var query = search ? normalize(search.value) : "";
    var show = filter ? filter.value : "all";
    var shown = 0;
    Array.prototype.forEach.call(list.querySelectorAll(".checkin-row"), function (row) {
      var present = row.classList.contains("is-present");
      var text = normalize(row.getAttribute("data-search"));
      var number = text.split(" ")[0];
      var match = query === "" ? !hideAll
        : (/^\d+$/.test(query) ? number === query || number.indexOf(query) === 0 : text.indexOf(query) !== -1);
      var visible = match && (show === "all" || (show === "present") === present);
      row.classList.toggle("d-none", !visible);
      if (visible) { shown += 1; }
    });
    if (none) { none.classList.toggle("d-none", shown > 0 || (hideAll && query === "")); }
  }

  function counts() {
    var present = list.querySelectorAll(".checkin-row.is-present").length;
    var total = list.querySelectorAll(".checkin-row").length;
    document.getElementById("count-present").textContent = String(present);
    document.getElementById("count-missing").textContent = String(total - present);
  }

  if (search) { search.addEventListener("input", apply); }
  if (filter) { filter.addEventListener("change", apply); }

  if (root) {  // the phone list: ticks without reloading
    list.addEventListener("submit", function (event) {
      var form = event.target;
      event.preventDefault();
      var row = form.closest(".checkin-row");
      var state = form.querySelector("input[name=present]");
      var button = form.querySelector("button");
      button.disabled = true;
      fetch(form.action, {method: "POST", body: new FormData(form), credentials: "same-origin",
                          headers: {"Accept": "application/json"}})
        .then(function (response) {
          return response.json().then(function (data) {
            if (!response.ok) { throw new Error(data.detail || root.getAttribute("data-failed")); }
            return data;
          });
        })
        .then(function (data) {
          row.classList.toggle("is-present", data.present);
          state.value = data.present ? "0" : "1";
          button.setAttribute("aria-pressed", data.present ? "true" : "false");
          var mark = row.querySelector(".checkin-mark");
          mark.textContent = mark.getAttribute(data.present ? "data-yes" : "data-no");
          counts();
          apply();
        })
        .catch(function (error) {
          window.alert(error && error.message ? error.message : root.getAttribute("data-failed"));
        })
        .finally(function () { button.disabled = false; });
    });
  }
  apply();
})();
