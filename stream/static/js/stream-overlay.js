// The stream overlay (stream/templates/stream/overlay.html, docs/stream-overlay.md): draws the table's frame; gets it
// from the state URL, then follows the websocket when the site has one (mode "socket"), else asks every second.
// A lost connection keeps the last picture: the stream must never go blank.
(function () {
  "use strict";
  var body = document.getElementById("overlay");
  var words = JSON.parse(document.getElementById("overlay-labels").textContent);
  var stateUrl = body.getAttribute("data-state-url");
  var socketBase = body.getAttribute("data-socket-url");
  var POLL_MS = 1000, RETRY_MS = 5000;
  var socket = null, polling = null;
  var drawnAt = -1;  // the moment of the frame on screen: an older one (a slow answer) never replaces it

  function fill(text, values) {
    return String(text).replace(/%\((\w+)\)s/g, function (all, name) {
      return values[name] === undefined || values[name] === null ? "—" : String(values[name]);
    });
  }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function when(phase) {
    var n = Math.floor((phase + 1) / 2);
    return fill(phase % 2 === 0 ? words.when.night : words.when.day, {n: n});
  }
  function eventText(event) {
    var template = words.events[event.kind];
    if (!template) { return ""; }
    var found = event.found ? words.found[event.found] : "";
    return when(event.phase) + ": " + fill(template, {n: event.seat, count: event.count, found: found});
  }

  function draw(frame) {
    var seats = document.getElementById("so-seats");
    var note = document.getElementById("so-note");
    var side = document.getElementById("so-side");
    var result = document.getElementById("so-result");
    var phase = document.getElementById("so-phase");
    seats.textContent = "";
    if (!frame) {
      document.getElementById("so-where").textContent = "";
      phase.textContent = "";
      side.hidden = true; result.hidden = true;
      note.textContent = words.none; note.hidden = false;
      return;
    }
    document.getElementById("so-where").textContent = [frame.stage || words.kinds[frame.stage_kind] || "",
      fill(words.round, {n: frame.round}),
      fill(words.table, {n: frame.table})].filter(Boolean).join(" · ");
    var n = Math.floor((frame.phase + 1) / 2), night = frame.phase % 2 === 0;
    phase.textContent = frame.started ? fill(night ? words.night : words.day, {n: n}) : "";
    phase.classList.toggle("night", night);
    note.textContent = words.waiting;
    note.hidden = frame.started;
    var voting = {};
    frame.nominated.forEach(function (seat) { voting[seat] = null; });
    frame.votes.forEach(function (vote) { voting[vote.seat] = vote.count; });
    frame.seats.forEach(function (seat) {
      var item = element("li", "so-seat");
      item.id = "so-seat-" + seat.n;
      item.classList.toggle("out", !!seat.out);
      item.classList.toggle("speaking", frame.speaking === seat.n);
      item.classList.toggle("on-vote", voting.hasOwnProperty(seat.n) && !seat.out);
      item.appendChild(element("div", "so-number", String(seat.n)));
      item.appendChild(element("div", "so-name", seat.name));
      var status = seat.out ? fill(words.out[seat.out] || "", {n: seat.when})
        : frame.speaking === seat.n ? words.speaking : "";
      item.appendChild(element("div", "so-status", status));
      var fouls = element("div", "so-fouls", seat.fouls ? new Array(seat.fouls + 1).join("●") : "");
      fouls.setAttribute("role", "img");  // the dots are a picture of the count: named by it (a plain div may not be)
      fouls.setAttribute("aria-label", words.fouls + ": " + seat.fouls);
      item.appendChild(fouls);
      if (frame.roles && seat.role) {
        item.appendChild(element("span", "so-role " + (seat.side || ""), words.roles[seat.role] || seat.role));
      }
      seats.appendChild(item);
    });
    var vote = document.getElementById("so-vote"), list = document.getElementById("so-vote-seats");
    list.textContent = "";
    var nominated = Object.keys(voting);
    vote.hidden = nominated.length === 0 || frame.ended;
    document.getElementById("so-vote-label").textContent = words.nominated;
    frame.nominated.concat(frame.votes.map(function (v) { return v.seat; })).forEach(function (seat) {
      if (list.querySelector('[data-seat="' + seat + '"]')) { return; }
      var count = voting[seat];
      var chip = element("span", "so-vote-seat", count === null || count === undefined ? String(seat)
        : seat + " · " + count);
      chip.setAttribute("data-seat", String(seat));
      list.appendChild(chip);
    });
    var events = document.getElementById("so-events");
    events.textContent = "";
    frame.events.slice().reverse().slice(0, 4).forEach(function (event) {
      var text = eventText(event);
      if (text) { events.appendChild(element("li", "", text)); }
    });
    side.hidden = vote.hidden && events.children.length === 0;
    result.hidden = !frame.ended;
    result.className = "so-result " + (frame.winner || "");
    result.textContent = frame.ended ? (words.won[frame.winner] || "") : "";
    body.setAttribute("data-drawn", String(Date.now()));
  }

  function show(frame, at) {
    if (at === null || at === undefined || at < drawnAt || (frame && frame.format !== 1)) { return; }
    drawnAt = at;
    draw(frame);
  }
  function poll() {
    return fetch(stateUrl, {cache: "no-store", credentials: "same-origin"}).then(function (answer) {
      if (!answer.ok) { throw new Error(String(answer.status)); }
      return answer.json();
    }).then(function (state) {
      if (state.known) { show(state.frame, state.at); }
      return state;
    });
  }
  function startPolling() {
    if (polling === null) { polling = window.setInterval(function () { poll().catch(function () {}); }, POLL_MS); }
  }
  function stopPolling() {
    if (polling !== null) { window.clearInterval(polling); polling = null; }
  }
  function socketUrl(ticket) {
    var base = socketBase || ((location.protocol === "https:" ? "wss://" : "ws://") + location.host);
    return base + "/ws/stream/" + encodeURIComponent(ticket) + "/";
  }
  // The websocket carries every frame as the judge taps; while it is down the page polls, and every few seconds
  // it asks the site for a new ticket and connects again.
  function follow() {
    poll().then(function (state) {
      if (state.mode !== "socket" || !window.WebSocket) { startPolling(); return; }
      socket = new WebSocket(socketUrl(state.ticket));
      socket.onopen = function () { stopPolling(); poll().catch(function () {}); };
      socket.onmessage = function (message) {
        var data = JSON.parse(message.data);
        show(data.frame, data.at);
      };
      socket.onclose = function () {
        socket = null;
        startPolling();
        window.setTimeout(follow, RETRY_MS);
      };
    }).catch(function () { startPolling(); window.setTimeout(follow, RETRY_MS); });
  }
  follow();
})();
