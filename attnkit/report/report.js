// Sorting and filtering of the students table, and opening a student's feedback; the page reads without it.
"use strict";
(function () {
  const table = document.getElementById("students");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const filter = document.getElementById("filter");
  const standing = document.getElementById("standing");
  const shown = document.getElementById("shown");
  document.getElementById("controls").hidden = false;
  document.querySelectorAll(".js-only").forEach(function (node) { node.hidden = false; });

  function key(row, column, numeric) {
    const text = row.cells[column].textContent.trim();
    if (!numeric) return text.toLowerCase();
    const value = parseFloat(text);
    return Number.isNaN(value) ? -Infinity : value;
  }

  function sortBy(header) {
    const column = header.cellIndex;
    const numeric = header.dataset.sort === "num";
    const ascending = header.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th[aria-sort]").forEach(function (th) { th.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const sorted = rows.slice().sort(function (a, b) {
      const x = key(a, column, numeric), y = key(b, column, numeric);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    sorted.forEach(function (row) { body.appendChild(row); });
  }

  function applyFilter() {
    const words = filter.value.trim().toLowerCase();
    const wanted = standing.value;
    let count = 0;
    rows.forEach(function (row) {
      const visible = (!words || row.textContent.toLowerCase().includes(words)) &&
        (!wanted || row.dataset.standing === wanted);
      row.hidden = !visible;
      if (visible) count += 1;
    });
    shown.textContent = count + " of " + rows.length + " students shown";
  }

  function openFeedback() {
    if (!location.hash.startsWith("#fb-")) return;
    const details = document.getElementById(location.hash.slice(1));
    if (!details) return;
    details.open = true;
    details.scrollIntoView({block: "start"});
  }

  table.tHead.querySelectorAll("th[data-sort]").forEach(function (header) {
    header.addEventListener("click", function () { sortBy(header); });
  });
  filter.addEventListener("input", applyFilter);
  standing.addEventListener("change", applyFilter);
  body.addEventListener("click", function (event) {
    const row = event.target.closest("tr");
    const link = row && row.querySelector("a[href^='#fb-']");
    if (!link || event.target === link) return;
    location.hash = link.getAttribute("href");
  });
  window.addEventListener("hashchange", openFeedback);
  applyFilter();
  openFeedback();
})();
