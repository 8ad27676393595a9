// Filtering only: the pages are complete without this script.
// An input with data-filter-target="ID" hides the [data-filter-item] children of #ID whose
// text does not contain every word typed; also marks the later pieces of a cut target span.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-filter-box]").forEach(function (box) {
    var input = box.querySelector("input");
    var count = box.querySelector("[data-filter-count]");
    var list = document.getElementById(input.getAttribute("data-filter-target"));
    if (!list) { return; }
    var items = Array.prototype.slice.call(list.querySelectorAll("[data-filter-item]"));
    box.hidden = false;
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      items.forEach(function (item) {
        var text = item.textContent.toLowerCase();
        var ok = words.every(function (w) { return text.indexOf(w) !== -1; });
        item.hidden = !ok;
        if (ok) { shown += 1; }
      });
      count.textContent = words.length ? shown + " of " + items.length + " shown" : "";
    });
  });
  function markContinuation() {
    document.querySelectorAll(".target-cont").forEach(function (el) { el.classList.remove("target-cont"); });
    var id = location.hash.slice(1);
    if (!/^q-\d+-\d+$/.test(id)) { return; }
    // A span that crosses another is cut in pieces; the later pieces name the first one.
    document.querySelectorAll('mark[data-part-of="' + id + '"]').forEach(function (el) { el.classList.add("target-cont"); });
  }
  window.addEventListener("hashchange", markContinuation);
  markContinuation();
});
