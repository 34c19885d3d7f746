// The venue screen (public/templates/public/venue_screen_page.html): shows one slide at a time, each for the
// fragment's data-seconds; keeps its place (by slide key) when a poll brings a new fragment; counts the round
// timer down from the server's time (the answers' Date header corrects the projector's clock); and when a
// poll fails keeps the last state on screen with a discreet "offline" mark and the time it was last updated.
(function () {
  "use strict";
  var current = null, shownAt = 0, offset = 0, lastOk = new Date();

  function slides() { return Array.prototype.slice.call(document.querySelectorAll("#venue-live .venue-slide")); }
  function state() { return document.getElementById("venue-state"); }
  function seconds() {
    var s = state();
    return s ? Math.max(5, parseInt(s.dataset.seconds, 10) || 15) : 15;
  }

  // Each slide as large as the screen lets it be (read from 10 m): the largest font size, between SMALLEST and
  // LARGEST pixels, at which the slide fits the space beside the QR code with no line cut; every size inside a
  // slide is in em of it (static/css/site.css), so three tables get larger type than four, a short announcement
  // larger than a long one.
  var SMALLEST = 24, LARGEST = 120;
  function fits(slide, box) {
    var style = window.getComputedStyle(box);
    var height = box.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    if (slide.scrollHeight > height + 1 || slide.scrollWidth > slide.clientWidth + 1) { return false; }
    var lines = slide.querySelectorAll(".venue-line");
    for (var i = 0; i < lines.length; i += 1) {
      if (lines[i].scrollWidth > lines[i].clientWidth + 1) { return false; }
    }
    return true;
  }
  function fit(slide) {
    var box = document.getElementById("venue-live");
    if (!slide || !box) { return; }
    var low = SMALLEST, high = LARGEST;
    for (var step = 0; step < 10; step += 1) {
      var middle = (low + high) / 2;
      slide.style.fontSize = middle + "px";
      if (fits(slide, box)) { low = middle; } else { high = middle; }
    }
    slide.style.fontSize = Math.floor(low) + "px";
  }

  function show(key) {
    var all = slides(), index = 0;
    all.forEach(function (slide, i) { if (slide.dataset.key === key) { index = i; } });
    all.forEach(function (slide, i) { slide.hidden = i !== index; });
    current = all.length ? all[index].dataset.key : null;
    if (all.length) { fit(all[index]); }
    var page = document.getElementById("venue-page"), s = state();
    if (page && s && all.length > 1) {
      page.textContent = window.interpolate(s.dataset.pageText, {n: index + 1, total: all.length});
    } else if (page) { page.textContent = ""; }
  }

  function next() {
    var all = slides();
    if (!all.length) { return; }
    var index = 0;
    all.forEach(function (slide, i) { if (slide.dataset.key === current) { index = (i + 1) % all.length; } });
    show(all[index].dataset.key);
    shownAt = Date.now();
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var box = document.getElementById("venue-timer"), s = state();
    if (!box || !s) { return; }
    var left = null;
    if (s.dataset.timerEnds) {
      left = Math.max(0, Math.round((Date.parse(s.dataset.timerEnds) - (Date.now() + offset)) / 1000));
    } else if (s.dataset.timerLeft) {
      left = parseInt(s.dataset.timerLeft, 10);
    }
    if (left === null) { box.hidden = true; return; }
    box.hidden = false;
    box.classList.toggle("venue-timer-paused", !s.dataset.timerEnds);
    box.classList.toggle("venue-timer-over", left === 0);
    var text = Math.floor(left / 60) + ":" + pad(left % 60);
    box.textContent = (s.dataset.timerLabel ? s.dataset.timerLabel + " " : "") + text;
  }

  function offline(on) {
    var mark = document.getElementById("venue-offline");
    if (!mark) { return; }
    mark.hidden = !on;
    if (on) { mark.textContent = window.interpolate(mark.dataset.text, {time: pad(lastOk.getHours()) + ":" + pad(lastOk.getMinutes())}); }
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (event.detail.successful) {
      lastOk = new Date();
      offline(false);
      var date = xhr && xhr.getResponseHeader("Date");
      if (date) { offset = Date.parse(date) - Date.now(); }
    } else {
      offline(true);
    }
  });
  document.addEventListener("htmx:sendError", function () { offline(true); });
  document.addEventListener("htmx:afterSwap", function () { show(current); tick(); });

  window.addEventListener("resize", function () {
    slides().forEach(function (slide) { if (!slide.hidden) { fit(slide); } });
  });

  function start() {
    show(null);
    shownAt = Date.now();
    tick();
    setInterval(function () {
      tick();
      if (Date.now() - shownAt >= seconds() * 1000) { next(); }
    }, 250);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
