"""Issue 22 item 12: text from the student's side is shown with its control and format characters escaped."""
from grader.text import printable


def test_controls_and_format_characters_are_escaped_line_breaks_kept():
    assert printable("plain, accents é and ∑ stay\n\tindented") == "plain, accents é and ∑ stay\n\tindented"
    assert printable("\x1b[2J\x07\x9b\r") == "\\x1b[2J\\x07\\x9b\\x0d"
    assert printable("\u202egnp.exe\u2028") == "\\u202egnp.exe\\u2028"
    assert printable("\U000e0001") == "\\U000e0001"
