"""The sections of ``report.html``, each a function of the report's data returning HTML.

Every text is escaped here (student ids, messages and notes come from student code); the pages are
plain tables, readable with JavaScript off. Element ids are made from positions, never from text.
"""
from __future__ import annotations

from html import escape

from .data import NEEDS_HELP, Bin, ClassReport, SharedGroup, Standing

SVG_WIDTH, SVG_HEIGHT, BAR_GAP = 600, 180, 4
LISTED = 12  # students named inline; a longer list folds into a <details>


def num(value: float | None) -> str:
    """A score as shown: at most two decimals, no trailing zeros; empty for None."""
    if value is None:
        return ""
    return f"{round(float(value), 2):g}"


def percent(share: float) -> str:
    return f"{round(100 * share):d}%"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def feedback_links(report: ClassReport) -> dict[str, str]:
    """Student -> the id of their feedback in the page (positions, never the student's text)."""
    return {item.student: f"fb-{i}" for i, item in enumerate(report.feedback)}


def _name(student: str, links: dict[str, str]) -> str:
    target = links.get(student)
    return f'<a href="#{target}">{escape(student)}</a>' if target else escape(student)


def _students(names, links: dict[str, str] | None = None) -> str:
    names = [_name(n, links or {}) for n in names]
    if len(names) <= LISTED:
        return ", ".join(names)
    return (f"{', '.join(names[:LISTED])} <details><summary>and {len(names) - LISTED} more</summary>"
            f"{', '.join(names[LISTED:])}</details>")


def header(report: ClassReport) -> str:
    return (f'<header><h1>Class report</h1><p id="headline"><span id="graded">{report.graded}</span> of '
            f'<span id="student-count">{report.students}</span> submissions graded; mean '
            f'<span id="mean-score">{num(report.mean_score)}</span> / '
            f'<span id="max-score">{num(report.max_score)}</span></p>{glance(report)}'
            '<nav><a href="#distribution">Scores</a> <a href="#exercises">Exercises</a> '
            '<a href="#mistakes">Mistakes</a> <a href="#groups">Shared mistakes</a> '
            '<a href="#problems">Problems</a> <a href="#students-section">Students</a></nav></header>')


def glance(report: ClassReport) -> str:
    """The answers first: the exercise that lost the class, the most frequent mistake, who needs help."""
    items = []
    hardest = min(report.exercises, key=lambda row: (row.full_share, row.mean / (row.max_score or 1)), default=None)
    if hardest is not None:
        items.append(f'<li id="hardest">Hardest exercise: <strong>{escape(hardest.exercise)}</strong>, '
                     f"{percent(hardest.full_share)} at full marks (mean {num(hardest.mean)} / "
                     f"{num(hardest.max_score)})</li>")
    if report.mistakes:
        top = report.mistakes[0]
        items.append(f"<li>Most frequent named mistake: <code>{escape(top.mistake)}</code> in "
                     f"{escape(top.exercise)}, {len(top.students)} students</li>")
    if report.groups:
        largest = report.groups[0]
        items.append(f"<li>{plural(len(report.groups), 'group')} of students share an unnamed mistake (largest: "
                     f"{len(largest.students)} students in {escape(largest.exercise)})</li>")
    helped = sum(row.standing is Standing.NEEDS_HELP for row in report.rows)
    troubled = sum(row.standing is Standing.PROBLEM for row in report.rows)
    items.append(f'<li id="needs-help">{plural(helped, "student")} below {percent(NEEDS_HELP)} of the maximum; '
                 f"{troubled} with a problem in their hand-in</li>")
    return f'<ul id="glance">{"".join(items)}</ul>'


def distribution(bins: tuple[Bin, ...]) -> str:
    """A bar chart (inline SVG) of the score bins, and the same counts as a table."""
    tallest = max((b.count for b in bins), default=0) or 1
    width = SVG_WIDTH / max(len(bins), 1)
    bars = []
    for i, b in enumerate(bins):
        height = round((SVG_HEIGHT - 20) * b.count / tallest)
        x, y = round(i * width + BAR_GAP / 2), SVG_HEIGHT - 20 - height
        middle = round(x + width / 2)
        label = f"{num(b.low)} to {num(b.high)}: {b.count}"
        bars.append(f'<rect x="{x}" y="{y}" width="{round(width - BAR_GAP)}" height="{height}"><title>{label}'
                    f'</title></rect><text x="{middle}" y="{SVG_HEIGHT - 5}">{percent(i / len(bins))}</text>'
                    + (f'<text x="{middle}" y="{max(y - 3, 10)}">{b.count}</text>' if b.count else ""))
    rows = "".join(f"<tr><td>{num(b.low)} to {'' if i < len(bins) - 1 else 'and incl. '}{num(b.high)}</td>"
                   f'<td class="n">{b.count}</td></tr>' for i, b in enumerate(bins))
    return ('<section id="distribution"><h2>Score distribution</h2><p>Students per tenth of the maximum score '
            f"({num(bins[-1].high) if bins else 0}).</p>"
            f'<svg role="img" aria-label="students per score bin" viewBox="0 0 {SVG_WIDTH} {SVG_HEIGHT}" '
            f'width="{SVG_WIDTH}" height="{SVG_HEIGHT}">{"".join(bars)}</svg>'
            '<details><summary>as a table</summary><table><thead><tr><th>score</th><th>students</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></details></section>")


def exercises(report: ClassReport) -> str:
    rows = []
    for row in report.exercises:
        failed = "<br>".join(f"{escape(f.title)} ({f.students})" for f in row.failed) or "none"
        rows.append(f'<tr data-exercise="{escape(row.exercise)}"><td>{escape(row.exercise)}</td>'
                    f'<td class="n mean">{num(row.mean)}</td><td class="n">{num(row.max_score)}</td>'
                    f'<td class="n full">{row.full_marks}</td><td class="n">{percent(row.full_share)}</td>'
                    f"<td>{failed}</td></tr>")
    return ('<section id="exercises"><h2>Exercises</h2><table><thead><tr><th>exercise</th><th>mean</th>'
            "<th>max</th><th>full marks</th><th>share at full marks</th><th>checks most often failed "
            f"(students)</th></tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def mistakes(report: ClassReport) -> str:
    links = feedback_links(report)
    if not report.mistakes:
        return '<section id="mistakes"><h2>Named mistakes</h2><p>none diagnosed</p></section>'
    rows = "".join(f'<tr data-mistake="{escape(m.mistake)}"><td class="n">{len(m.students)}</td>'
                   f"<td>{escape(m.exercise)}</td><td><code>{escape(m.mistake)}</code></td>"
                   f"<td>{escape(m.hint)}</td><td>{_students(m.students, links)}</td></tr>" for m in report.mistakes)
    return ('<section id="mistakes"><h2>Named mistakes, most frequent first</h2><table><thead><tr>'
            "<th>students</th><th>exercise</th><th>mistake</th><th>hint given</th><th>who</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def groups(found: tuple[SharedGroup, ...], links: dict[str, str] | None = None) -> str:
    links = links or {}
    title = "<h2>Students sharing an unnamed mistake</h2>"
    if not found:
        return f'<section id="groups">{title}<p>none found</p></section>'
    rows = "".join(f'<tr class="group"><td class="n">{len(g.students)}</td><td>{escape(g.exercise)}</td>'
                   f"<td>{escape(g.check)}</td><td><pre>{escape(g.first_difference)}</pre></td>"
                   f"<td>{_name(g.example, links)}</td><td>{_students(g.students, links)}</td></tr>"
                   for g in found)
    return (f'<section id="groups">{title}<table><thead><tr><th>students</th><th>exercise</th><th>check</th>'
            "<th>first differing entry</th><th>example</th><th>who</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def problems(report: ClassReport) -> str:
    parts = ['<section id="problems"><h2>Problems</h2>']
    if report.problems:
        links = feedback_links(report)
        rows = "".join(f'<tr><td>{_name(p["student"], links)}</td><td>{escape(p["kind"].replace("_", " "))}</td>'
                       f'<td><pre>{escape(p["detail"])}</pre></td></tr>' for p in report.problems)
        parts.append("<table><thead><tr><th>student</th><th>problem</th><th>detail</th></tr></thead>"
                     f"<tbody>{rows}</tbody></table>")
    else:
        parts.append("<p>no submission had a problem</p>")
    if report.grader_errors:
        items = "".join(f"<li>{g['students']} students: {escape(g['check'])}</li>" for g in report.grader_errors)
        parts.append("<h3>Checks that failed on the grader's side (not the students' fault; please report)</h3>"
                     f"<ul>{items}</ul>")
    if report.warnings:
        items = "".join(f"<li>{escape(w)}</li>" for w in report.warnings)
        parts.append(f"<h3>Left out of the submissions folder</h3><ul>{items}</ul>")
    return "".join(parts) + "</section>"


def students(report: ClassReport, exercise_ids: tuple[str, ...]) -> str:
    """The per-student table; each name links to that student's feedback (``#fb-<row>``)."""
    links = feedback_links(report)
    top = {row.exercise: row.max_score for row in report.exercises}
    heads = "".join(f'<th data-sort="num">{escape(ex)}</th>' for ex in exercise_ids)
    rows = []
    for row in report.rows:
        scores = zip(exercise_ids, row.exercises)
        cells = "".join(f'<td class="n{_lost(s, top.get(ex, 0))}">{num(s)}</td>' for ex, s in scores)
        notes = escape(", ".join([*row.mistakes, *(k.replace("_", " ") for k in row.problems)]))
        rows.append(f'<tr data-standing="{row.standing.name.lower()}"><td>{_name(row.student, links)}</td>'
                    f'<td class="n">{num(row.score)}</td><td>{escape(str(row.standing))}</td>{cells}'
                    f"<td>{notes}</td></tr>")
    options = "".join(f'<option value="{s.name.lower()}">{escape(str(s))}</option>' for s in Standing)
    controls = ('<div id="controls" hidden><label>Find <input id="filter" type="search" '
                'placeholder="student, mistake, problem"></label> <label>Show <select id="standing">'
                f'<option value="">everyone</option>{options}</select></label> <span id="shown"></span></div>')
    return ('<section id="students-section"><h2>Students</h2>'
            '<p class="js-only" hidden>Click a column to sort, a name to open the feedback.</p>'
            f'{controls}<div class="wide"><table id="students"><thead><tr><th data-sort="text">student</th>'
            f'<th data-sort="num">score / {num(report.max_score)}</th><th data-sort="text">standing</th>{heads}'
            f'<th data-sort="text">mistakes and problems</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
            "</section>")


def _lost(score: float | None, max_score: float) -> str:
    """The cell's class: ``lost`` when points were lost in that exercise, ``none`` when none were scored."""
    if score is None or max_score <= 0 or score >= max_score:
        return ""
    return " none" if score <= 0 else " lost"


def feedback(report: ClassReport) -> str:
    """Each student's feedback as the student sees it, folded: the checks that passed counted, an exercise
    left as a stub in one line."""
    parts = ['<section id="feedback"><h2>Feedback, as each student sees it</h2>']
    for i, item in enumerate(report.feedback):
        checks = "".join(f'<li><span class="check">{escape(entry.name)}</span> {num(entry.score)}/'
                         f"{num(entry.max_score)}<pre>{escape(entry.output)}</pre></li>" for entry in item.failed)
        if item.untouched:
            checks += f"<li>not implemented yet (every check): {escape(', '.join(item.untouched))}</li>"
        rest = "; the others:" if checks else "."
        parts.append(f'<details id="fb-{i}" class="feedback"><summary>{escape(item.student)}</summary>'
                     f'<pre class="output">{escape(item.output)}</pre><p>{item.passed} of {item.checks} checks '
                     f'passed{rest}</p><ul>{checks}</ul><p><a href="#students-section">back to the students</a></p>'
                     "</details>")
    return "".join(parts) + "</section>"
