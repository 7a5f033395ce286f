"""report.html as a file: written with the class files, self-contained, escaped, readable without JavaScript,
small for a large class."""
from __future__ import annotations

from attnkit.grade.summary import write_all
from attnkit.report import REPORT_HTML, page, sections
from attnkit.report.data import GROUPS_KEY, SharedGroup, build
from grader.results import Note, NoteKind

from .classkit import EXERCISES, make_class, student, summarise
from .pagecheck import fetches, text_without_scripts

HOSTILE = '<img src=x onerror="alert(1)">'


def render(results, **summary_extra):
    summary = summarise(results) | summary_extra
    return page.render(build(results, summary, EXERCISES), EXERCISES), summary


def test_attnkit_grade_writes_the_report_beside_summary_txt(tmp_path):
    results = make_class(20)
    write_all(tmp_path, results, EXERCISES, {}, [], pictures=False)
    written = (tmp_path / REPORT_HTML).read_text()
    assert written == render(results)[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv", REPORT_HTML, "summary.json", "summary.txt"]


def test_the_page_fetches_nothing(tmp_path):
    text, _ = render(make_class(30) + [student(f"http://{HOSTILE}", "refused")])
    assert fetches(text) == []
    assert "http://" in text_without_scripts(text)  # a student's text may say anything: it stays text


def test_the_fetch_scan_sees_what_a_page_could_load():
    assert fetches('<link rel="stylesheet" href="https://cdn.example/x.css"><p>https://in.text</p>') != []
    assert fetches('<script>fetch("data.json")</script><svg><image href="//x/y.png"/></svg>') != []
    assert fetches('<a href="#fb-1">x</a><p>see https://example.org</p>') == []


def test_text_from_student_code_is_escaped():
    hostile = student(HOSTILE, "mistake:softmax")
    hostile.exercises[0].checks[1].message = f"</pre><script>alert('{HOSTILE}')</script>"
    hostile.notes = [Note(NoteKind.SKIPPED, f"{HOSTILE}.py")]
    groups = [{"exercise": "softmax", "check": HOSTILE, "students": 1, "members": [HOSTILE], "difference": HOSTILE}]
    text, _ = render([hostile, student("b", "right")], **{GROUPS_KEY: groups})
    assert text.count("<script>") == 1 and "<img" not in text and "onerror=\"" not in text
    assert text.count("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;") >= 6  # row, feedback, mistake, group, notes
    assert HOSTILE in text_without_scripts(text)


def test_without_javascript_every_figure_is_in_the_tables():
    results = make_class(40)
    text, summary = render(results)
    shown = text_without_scripts(text)
    assert f"{summary['graded']} of {summary['students']} submissions graded; mean " \
           f"{sections.num(summary['mean_score'])} / {sections.num(summary['max_score'])}" in shown
    for row in summary["exercises"]:
        assert f"{row['exercise']} {sections.num(row['mean'])} {sections.num(row['max_score'])} {row['full_marks']}" \
            in shown
    for result in results:
        assert f"{result.student} {sections.num(result.score)} " in shown
    assert '<div id="controls" hidden>' in text  # the sorting and filtering controls appear with the script


def test_shared_mistake_groups_are_listed_largest_first_or_none_found():
    assert "none found" in sections.groups(())
    found = (SharedGroup("attention", "test_scale", ("p", "q", "r"), "q", "[0, 1]: got 0.5, expected 0.25"),
             SharedGroup("softmax", "test_rows", ("x", "y"), "x", "[2]: got nan"))
    html = sections.groups(found)
    assert "none found" not in html and html.count('<tr class="group">') == 2
    shown = text_without_scripts(html)
    assert "3 attention test_scale [0, 1]: got 0.5, expected 0.25 q p, q, r" in shown
    assert "2 softmax test_rows [2]: got nan x x, y" in shown


def test_the_glance_names_the_hardest_exercise_the_top_mistake_and_the_groups():
    results = [student("a", "mistake:softmax"), student("b", "mistake:softmax"), student("c", "right"),
               student("d", "stubs")]
    groups = [{"exercise": "attention", "check": "t", "students": 2, "members": ["c", "d"]}]
    shown = text_without_scripts(sections.glance(build(results, summarise(results) | {GROUPS_KEY: groups},
                                                       EXERCISES)))
    assert shown == ("Hardest exercise: softmax, 25% at full marks (mean 3.75 / 10) "
                     "Most frequent named mistake: softmax_no_max_shift in softmax, 2 students "
                     "1 group of students share an unnamed mistake (largest: 2 students in attention) "
                     "1 student below 50% of the maximum; 0 with a problem in their hand-in")


def test_a_long_list_of_students_folds():
    names = [f"s{i}" for i in range(sections.LISTED + 3)]
    html = sections._students(names)
    assert "<details><summary>and 3 more</summary>" in html and names[-1] in html


def test_three_hundred_students_stay_under_two_megabytes():
    results = make_class(300)
    for result in results[::3]:  # a third of the class with long messages (arrays in the call and the values)
        for exercise in result.exercises:
            for check in exercise.checks:
                check.message = check.message and check.message * 40
    text, _ = render(results)
    assert len(text.encode()) < 2 * 1024 * 1024


def test_a_class_the_grader_failed_on_entirely_still_gets_a_report():
    text, summary = render([], **{})
    assert "0 of 0 submissions graded" in text_without_scripts(text)
    summary = summarise([], errors={"ann": "worker died"})
    shown = text_without_scripts(page.render(build([], summary, EXERCISES), EXERCISES))
    assert "0 of 1 submissions graded" in shown and "ann not graded worker died; re-run to retry" in shown


def test_names_link_to_their_feedback_and_lost_points_are_marked():
    results = [student("ann", "mistake:softmax"), student("bea", "stubs"), student("cy", "right")]
    report = build(results, summarise(results), EXERCISES)
    links = sections.feedback_links(report)
    assert links == {"ann": "fb-0", "bea": "fb-1", "cy": "fb-2"}
    assert '<a href="#fb-0">ann</a>' in sections.mistakes(report)
    table = sections.students(report, EXERCISES)
    assert '<td class="n lost">2.5</td><td class="n">10</td>' in table       # ann: softmax lost, attention full
    assert table.count('<td class="n none">0</td>') == 2                     # bea: nothing scored in either
    assert '<div id="fb-1" ' not in table and 'id="fb-1"' in sections.feedback(report)
