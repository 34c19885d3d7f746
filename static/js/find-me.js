// The public standings on a phone (public/templates/public/standings_page.html and standings.html):
// - folded columns: below 768 px the games, the wins and the tie-break columns are hidden by static/css/site.css
//   (only once this script has put "standings-fold" on <html>: without it the table scrolls sideways as before);
//   a tap on a row, or its small button (aria-expanded, a real <button>, so the keyboard works), opens a line under
//   it with each hidden value and its column's long name (the header's title). Nothing is written twice in the
//   page: the line is built from the row's own cells when it opens.
// - "find me": a name, a nickname (the link's data-nick) or a participant number; the row (or the player in the
//   alphabetical list of hidden standings) is scrolled to, marked and opened; several: a list to choose from;
//   none: a message. The choice is kept in localStorage for this tournament and found again after every htmx
//   poll (the fragment is swapped every 20 s) and on the next visit, until "forget me".
// - the rest of a long table: past the first hundred rows the table goes on in a hidden part (#standings-rest: a
//   phone styles and lays out none of it) that "Show all" opens, as does finding a player there; it stays open
//   through the polls. Without this script "Show all" is a link to the whole table (?all=1).
// Everything happens here, in the browser: the page comes from a cache shared by every spectator. Its words are
// the form's data-* attributes, translated by the template.
(function () {
  "use strict";

  document.documentElement.classList.add("standings-fold");
  var phone = window.matchMedia("(max-width: 767.98px)");
  var slug = window.location.pathname.split("/")[2] || "";
  var storageKey = "find-me:" + slug;
  var opened = {};  // the player links (href) whose line is open: opened again after a poll
  var serial = 0;

  function form() { return document.getElementById("find-me"); }

  // The form's data-NAME with %(key)s replaced.
  function words(name, values) {
    var element = form();
    return window.interpolate(element ? element.getAttribute("data-" + name) || "" : "", values || {});
  }

  // As the seating's "Where do I sit?" compares (public/views/seating.py normalize): case and ё/е do not matter;
  // nor do accents (é, ñ), while й stays й.
  function normalize(text) {
    return String(text).toLowerCase().replace(/ё/g, "е").replace(/й/g, "\u0001").normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "").replace(/\u0001/g, "й").replace(/\s+/g, " ").trim();
  }

  function table() { return document.getElementById("standings"); }

  function playerRows() {
    var standings = table();
    if (standings) {
      var rows = [];
      Array.prototype.forEach.call(standings.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (row) {
          if (!row.classList.contains("standing-detail")) { rows.push(row); }
        });
      });
      return rows;
    }
    var list = document.getElementById("hidden-players");
    return list ? Array.prototype.slice.call(list.children) : [];
  }

  function entry(element) {
    var link = element.querySelector("a[href]");
    var number = element.querySelector(".nr");
    var rank = element.tagName === "TR" ? (element.cells[0].firstChild || {}).nodeValue || "" : "";
    return {
      element: element, href: link ? link.getAttribute("href") : "", name: link ? link.textContent.trim() : "",
      nickname: link ? link.getAttribute("data-nick") || "" : "", number: number ? number.textContent.trim() : "",
      rank: rank.trim(),
    };
  }

  function matches(player, query) {
    if (/^\d+$/.test(query)) {
      return player.number !== "" && parseInt(player.number, 10) === parseInt(query, 10);
    }
    return normalize(player.name).indexOf(query) >= 0 || normalize(player.nickname).indexOf(query) >= 0;
  }

  // --- the folded columns ------------------------------------------------------------------------------------

  function addToggles() {
    var model = document.createElement("button");
    model.type = "button";
    model.className = "fold-toggle";
    model.setAttribute("aria-expanded", "false");
    model.setAttribute("aria-label", words("toggle"));
    playerRows().forEach(function (row) {
      if (row.tagName === "TR" && !row.parentNode.hidden && !row.cells[0].querySelector(".fold-toggle")) {
        row.cells[0].appendChild(model.cloneNode(false));
      }
    });
  }

  function detailOf(row) {
    var next = row.nextElementSibling;
    return next && next.classList.contains("standing-detail") ? next : null;
  }

  function buildDetail(row) {
    var heads = table().tHead.rows[0].cells;
    var line = document.createElement("tr");
    var cell = line.insertCell(0);
    var list = document.createElement("dl");
    var shown = 0;
    // the row's colour and the cut line under it go with it (the mark of "find me" follows by CSS)
    line.className = ("standing-detail " + row.className.replace(/\bfound\b/, "")).trim();
    line.id = "standing-detail-" + (++serial);
    list.className = "folded";
    Array.prototype.forEach.call(row.cells, function (td, index) {
      if (window.getComputedStyle(td).display !== "none") {
        shown += 1;
        return;
      }
      var head = heads[index];
      var pair = document.createElement("div");
      var term = document.createElement("dt");
      var value = document.createElement("dd");
      term.textContent = head ? head.getAttribute("title") || head.textContent : "";
      value.textContent = td.textContent.trim() || "–";
      pair.appendChild(term);
      pair.appendChild(value);
      list.appendChild(pair);
    });
    cell.colSpan = Math.max(1, shown);
    cell.appendChild(list);
    return line;
  }

  function setOpen(row, open) {
    var line = detailOf(row);
    var button = row.cells[0].querySelector(".fold-toggle");
    var href = entry(row).href;
    if (open && !line) {
      line = buildDetail(row);
      row.parentNode.insertBefore(line, row.nextSibling);
    } else if (!open && line) {
      line.parentNode.removeChild(line);
    }
    if (open) { opened[href] = true; } else { delete opened[href]; }
    if (button) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) { button.setAttribute("aria-controls", line.id); } else { button.removeAttribute("aria-controls"); }
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) { return; }
    var row = target.closest("#standings > tbody > tr");
    if (!row || row.classList.contains("standing-detail")) { return; }
    var button = target.closest(".fold-toggle");
    if (!button && (!phone.matches || target.closest("a, button, summary"))) { return; }
    setOpen(row, !detailOf(row));
  });

  // --- the rest of a long table -----------------------------------------------------------------------------------

  var restShown = false;

  function showRest() {
    var rest = document.getElementById("standings-rest");
    var more = document.getElementById("standings-more-line");
    restShown = true;
    if (!rest || !rest.hidden) { return; }
    rest.hidden = false;
    if (more) { more.hidden = true; }
    addToggles();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#standings-more")) {
      event.preventDefault();
      showRest();
    }
  });

  // --- find me -------------------------------------------------------------------------------------------------

  function remembered() {
    try {
      return JSON.parse(window.localStorage.getItem(storageKey) || "null");
    } catch (error) {
      return null;
    }
  }

  function remember(player) {
    try {
      if (player) {
        window.localStorage.setItem(storageKey, JSON.stringify({href: player.href, name: player.name}));
      } else {
        window.localStorage.removeItem(storageKey);
      }
    } catch (error) { /* private browsing: kept for this page only */ }
    memory = player ? {href: player.href, name: player.name} : null;
  }
  var memory = null;

  function chosen() { return remembered() || memory; }

  function say(text) {
    var status = document.getElementById("find-me-status");
    if (status) { status.textContent = text; }
  }

  function showChoices(players) {
    var box = document.getElementById("find-me-choices");
    if (!box) { return; }
    box.textContent = "";
    box.hidden = !players.length;
    players.forEach(function (player) {
      var button = document.createElement("button");
      var label = player.name + (player.number ? " № " + player.number : "");
      if (player.rank) { label += ", " + words("place", {rank: player.rank}); }
      button.type = "button";
      button.className = "list-group-item list-group-item-action";
      button.setAttribute("data-find-href", player.href);
      button.textContent = label;
      box.appendChild(button);
    });
  }

  // Marks the chosen player's row (and opens its line on a phone); scrolls to it when asked. A line that an earlier
  // choice opened is closed (not one the reader opened).
  var autoOpened = null;
  function apply(scroll) {
    var choice = chosen();
    var forget = document.getElementById("find-me-forget");
    var rows = playerRows().map(entry);
    if (autoOpened && (!choice || choice.href !== autoOpened)) {
      rows.forEach(function (p) {
        if (p.href === autoOpened && p.element.tagName === "TR") { setOpen(p.element, false); }
      });
      autoOpened = null;
    }
    rows.forEach(function (p) { p.element.classList.remove("found"); });
    if (forget) { forget.hidden = !choice; }
    if (!choice) { return; }
    var player = rows.filter(function (p) { return p.href === choice.href; })[0];
    if (!player) {
      say(words("absent", {name: choice.name}));
      return;
    }
    if (player.element.parentNode.hidden) { showRest(); }
    player.element.classList.add("found");
    if (player.element.tagName === "TR" && phone.matches && !detailOf(player.element)) {
      autoOpened = player.href;
      setOpen(player.element, true);
    }
    say(words("showing", {name: player.name}));
    if (scroll) { player.element.scrollIntoView({block: "center", behavior: "instant"}); }
  }

  function find(text) {
    var query = normalize(text);
    showChoices([]);
    if (!query) {
      say("");
      return;
    }
    var found = playerRows().map(entry).filter(function (player) { return matches(player, query); });
    if (!found.length) {
      say(words("none", {query: text.trim()}));
    } else if (found.length === 1) {
      remember(found[0]);
      apply(true);
    } else {
      say(found.length > 20 ? words("more") : words("several"));
      showChoices(found.slice(0, 20));
    }
  }

  document.addEventListener("submit", function (event) {
    if (event.target.id === "find-me") {
      event.preventDefault();
      find(document.getElementById("find-me-q").value);
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) { return; }
    var choice = target.closest("[data-find-href]");
    if (choice) {
      var player = playerRows().map(entry).filter(function (p) {
        return p.href === choice.getAttribute("data-find-href");
      })[0];
      showChoices([]);
      if (player) {
        remember(player);
        apply(true);
      }
    } else if (target.closest("#find-me-forget")) {
      remember(null);
      apply(false);
      say("");
      document.getElementById("find-me-q").value = "";
    }
  });

  // --- on load and after every poll ------------------------------------------------------------------------------

  function refresh(scroll) {
    if (restShown) { showRest(); }
    addToggles();
    var again = Object.keys(opened);
    opened = {};
    playerRows().forEach(function (row) {
      if (row.tagName === "TR" && again.indexOf(entry(row).href) >= 0) { setOpen(row, true); }
    });
    apply(scroll);
  }

  function start() {
    var element = form();
    if (element) { element.hidden = false; }
    refresh(true);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "live") { refresh(false); }
  });
})();
