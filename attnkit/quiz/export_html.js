// The quiz page's answer checking (attnkit quiz's rules) and its review schedule in localStorage.
"use strict";
(function () {
  const body = document.body;
  const storageKey = body.dataset.storage;
  const intervals = JSON.parse(body.dataset.intervals);  // Leitner box -> seconds until due
  const slack = parseFloat(body.dataset.slack);
  const NUMBER = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?|nan)$/i;
  const answered = new Set();

  // Python's re.sub(r"\s+", "", text).casefold() for ASCII text (\s there includes \x1c-\x1f).
  function normalise(text) { return text.replace(/[\s\x1c-\x1f]+/g, "").toLowerCase(); }
  function ascii(text) { return /^[\x00-\x7f]*$/.test(text); }
  // float(text.replace("_", "")) for ASCII text; null when Python would refuse it.
  function parseNumber(text) {
    const cleaned = text.replace(/_/g, "").trim();
    if (!NUMBER.test(cleaned)) return null;
    const lower = cleaned.toLowerCase().replace(/^\+/, "");
    if (lower.endsWith("nan")) return NaN;
    if (lower.endsWith("inf") || lower.endsWith("infinity")) return lower.startsWith("-") ? -Infinity : Infinity;
    return parseFloat(cleaned);
  }

  function valid(card) {
    return card !== null && typeof card === "object" && Number.isInteger(card.box) && card.box in intervals &&
      Number.isFinite(card.due) && Number.isInteger(card.reviews) && Number.isInteger(card.lapses);
  }
  // The stored schedule; what is damaged starts afresh, as attnkit quiz does with a corrupted progress file.
  function load() {
    let data;
    try {
      data = JSON.parse(localStorage.getItem(storageKey) || "{}");
    } catch (error) {
      data = {};
    }
    const cards = {};
    if (data !== null && typeof data === "object") {
      Object.keys(data).forEach(function (qid) { if (valid(data[qid])) cards[qid] = data[qid]; });
    }
    return cards;
  }
  function save(cards) { localStorage.setItem(storageKey, JSON.stringify(cards)); }

  // progress.Progress.record: right moves up one box (a first answer to box 2), wrong sends back to box 1.
  function record(qid, correct) {
    const cards = load();
    const card = cards[qid] || {box: 1, reviews: 0, lapses: 0};
    if (correct) {
      card.box = card.reviews ? Math.min(card.box + 1, 5) : 2;
    } else {
      card.box = 1;
      card.lapses += 1;
    }
    card.reviews += 1;
    const now = Date.now();
    card.last = now;
    card.due = now + intervals[card.box] * 1000;
    cards[qid] = card;
    save(cards);
  }

  // attnkit.quiz.grading.mark, for the inputs of the page: {correct} or {bad: what to do} or {self: true}
  function mark(article) {
    const type = article.dataset.type;
    const key = JSON.parse(article.dataset.key);
    const form = article.querySelector("form");
    if (key === null) return {self: true};
    if (type === "single" || type === "true_false") {
      const chosen = form.querySelector("input:checked");
      if (!chosen) return {bad: "choose one answer"};
      return {correct: Number(chosen.value) === key};
    }
    if (type === "multiple") {
      const chosen = Array.from(form.querySelectorAll("input:checked")).map(function (i) { return Number(i.value); });
      if (!chosen.length) return {bad: "choose at least one answer"};
      return {correct: JSON.stringify(chosen.sort(function (a, b) { return a - b; })) === JSON.stringify(key)};
    }
    if (type === "ordering") {
      const positions = Array.from(form.querySelectorAll("select")).map(function (s) { return Number(s.value); });
      const sorted = positions.slice().sort(function (a, b) { return a - b; });
      if (sorted.some(function (p, i) { return p !== i + 1; })) {
        return {bad: "give every position from 1 to " + positions.length + " once"};
      }
      return {correct: positions.every(function (p, i) { return p === key[i]; })};
    }
    const text = form.querySelector("input.typed").value.trim();
    if (!text) return {bad: "type an answer"};
    if (!ascii(text)) return {self: true};
    if (type === "numeric") {
      const value = parseNumber(text);
      if (value === null) return {bad: "type a number, e.g. 0.418 (no units)"};
      return {correct: Math.abs(value - key.value) <= key.tolerance + slack};
    }
    return {correct: key.includes(normalise(text))};
  }

  function finish(article, correct) {
    const qid = article.dataset.qid;
    if (!answered.has(qid)) {
      answered.add(qid);
      record(qid, correct);
    }
    const verdict = article.querySelector(".verdict");
    verdict.className = "verdict " + (correct ? "right" : "wrong");
    verdict.textContent = correct ? "Right." : "Not quite: it comes back for review.";
    article.querySelector(".selfgrade").hidden = true;
    article.querySelector("details.solution").open = true;
    refresh();
  }

  function check(article) {
    const verdict = article.querySelector(".verdict");
    const result = mark(article);
    if (result.bad) {
      verdict.className = "verdict";
      verdict.textContent = result.bad.charAt(0).toUpperCase() + result.bad.slice(1) + ".";
    } else if (result.self) {
      verdict.className = "verdict self";
      verdict.textContent = "This answer cannot be checked in the page: compare it with the model answer.";
      article.querySelector(".selfgrade").hidden = false;
      article.querySelector("details.solution").open = true;
    } else {
      finish(article, result.correct);
    }
  }

  function days(ms) {
    const count = Math.ceil(ms / 86400000);
    return count + (count === 1 ? " day" : " days");
  }

  function refresh() {
    const cards = load();
    const now = Date.now();
    const due = [];
    document.querySelectorAll("article.q").forEach(function (article) {
      const card = cards[article.dataset.qid];
      const status = article.querySelector(".status");
      if (!card) {
        status.className = "status";
        status.textContent = "";
        article.dataset.due = "no";
      } else if (card.due <= now) {
        status.className = "status due";
        status.textContent = "due now";
        article.dataset.due = "yes";
        due.push(article);
      } else {
        status.className = "status later";
        status.textContent = "next review in " + days(card.due - now);
        article.dataset.due = "no";
      }
    });
    document.getElementById("due-summary").textContent = due.length + " of " +
      document.querySelectorAll("article.q").length + " questions due for review.";
    due.sort(function (a, b) {  // as attnkit quiz --review: earliest due first, then the lower box
      const x = cards[a.dataset.qid], y = cards[b.dataset.qid];
      return x.due - y.due || x.box - y.box;
    });
    const list = document.getElementById("due-list");
    list.textContent = "";
    due.forEach(function (article) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#" + article.id;
      link.textContent = article.querySelector("h3").firstChild.textContent.trim() + " " + article.dataset.qid;
      link.dataset.qid = article.dataset.qid;
      item.appendChild(link);
      list.appendChild(item);
    });
    const only = document.getElementById("only-due").checked;
    document.querySelectorAll("article.q").forEach(function (article) {
      article.hidden = only && article.dataset.due !== "yes";
    });
  }

  document.querySelectorAll("article.q").forEach(function (article) {
    article.querySelector("button.check").hidden = false;
    article.querySelector("form").addEventListener("submit", function (event) {
      event.preventDefault();
      check(article);
    });
    article.querySelectorAll(".selfgrade button").forEach(function (button) {
      button.addEventListener("click", function () { finish(article, button.dataset.right === "1"); });
    });
  });
  document.getElementById("only-due").addEventListener("change", refresh);
  document.getElementById("review").hidden = false;
  refresh();
  window.attnkitQuiz = {normalise: normalise, parseNumber: parseNumber, mark: mark, record: record, load: load};
})();
