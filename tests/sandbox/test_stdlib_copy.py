"""The standard library copy children import from when the installed one sits behind a folder they may not pass:
files others may read are hard links (a run no longer copies 27 MB), the others copies they may read, and the
installed files keep their modes."""
import os
import stat

from grader.sandbox.host.preflight import copy_stdlib


def test_readable_files_are_linked_the_others_copied_and_the_originals_untouched(tmp_path):
    source = tmp_path / "lib"
    (source / "json").mkdir(parents=True)
    (source / "os.py").write_text("# readable by others\n")
    (source / "json" / "secret.py").write_text("# only its owner may read it\n")
    os.chmod(source / "os.py", 0o644)
    os.chmod(source / "json" / "secret.py", 0o600)
    os.chmod(source / "json", 0o700)

    target = copy_stdlib(str(source), str(tmp_path / "copy" / "stdlib"))

    linked, copied = os.stat(os.path.join(target, "os.py")), os.stat(os.path.join(target, "json", "secret.py"))
    assert linked.st_ino == os.stat(source / "os.py").st_ino and stat.S_IMODE(linked.st_mode) == 0o644
    assert copied.st_ino != os.stat(source / "json" / "secret.py").st_ino and stat.S_IMODE(copied.st_mode) == 0o644
    assert stat.S_IMODE(os.stat(source / "json" / "secret.py").st_mode) == 0o600   # the installed file as it was
    assert stat.S_IMODE(os.stat(source / "json").st_mode) == 0o700
    for folder in (target, os.path.join(target, "json"), os.path.dirname(target)):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o755
    assert open(os.path.join(target, "json", "secret.py")).read() == "# only its owner may read it\n"
