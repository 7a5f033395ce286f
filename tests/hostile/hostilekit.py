"""The hostile-submission catalogue: load the cases, build the class folder, grade it once, look around.

A case is ``cases/<case_id>/`` with ``expected.yaml`` and the student's hostile modules. The
submission is the reference solutions with the case's files applied: ``<module>.py`` replaces a
module, ``<module>.patch.py`` is appended to the reference module (so it can wrap or rebind the
reference functions), ``remove:`` deletes modules, ``rename:`` hands a module in under another
name, ``zip:`` builds a ``.zip`` hand-in from entry specs, ``symlink:`` puts a symbolic link in the
folder, ``raw_names:`` adds files whose names are not UTF-8,
``encrypted: true`` in an entry spec marks it encrypted (``repeat: n``: n entries, ``{i}`` numbered),
``handin.zip`` is handed in as it is, ``special:`` adds what a folder hand-in may hold besides files
(``fifo``: a named pipe, ``deep``: that many nested folders, ``sparse_gib``: a sparse file of that size).
``targets: true`` adds ``hostile_targets.py`` (the paths of this run's output folder, class folder, canary
folder) so an attack knows where to aim.

``expected.yaml``::

    family: control | resources | crash | verdict | steal | malformed
    threat: what the student tries
    exercise: the exercise attacked
    points: {exercise: exact points, ...}   # every exercise not listed: full marks; null: not compared (an
                                            # exercise that calls the attacked one, whose checks come and go)
    message: a fragment of the message the student reads for that exercise
    refused: true                           # (optional) the whole hand-in is refused
    note: skipped                           # (optional) the kind of problem the class summary lists for it
    note_detail: "found instead"            # (optional) ... and a fragment of what it says about it
    landlock_abi: 6                         # (optional) holds only where the kernel has this Landlock ABI
    xfail: why                              # (optional) a known hole, reported, not fixed here
    hidden_only: true                       # (optional) it fails hidden checks only: nothing shown before grades
                                            # are published may tell (the total, an exercise's score, a note)
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
REPO = HERE.parents[1]
SOLUTIONS, EXERCISES = REPO / "solutions", REPO / "exercises"
FAMILIES = ("control", "resources", "crash", "verdict", "steal", "malformed")
CONTROLS = ("control_reference", "control_stubs")
CANARY_TEXT = "the canary: nothing may change this file\n"
# attnkit grade --timeout (seconds per call). Several cases do real work inside one call or import (nesting 1,100
# folders takes 0.3-0.6 s in the sandbox here, filling a large answer more), and the run shares a core with the other
# grading job: at 1 s a loaded CI machine timed that import out, so its next child found the folders made and failed.
TIMEOUT = 2.0
JOBS = 2
HANDIN_AS_IS = "handin.zip"  # a case file handed in exactly as it is, as <case_id>.zip
RUN_LIMIT = 240        # seconds: the whole catalogue run, a hang guard (normally well under a minute)


@dataclass(frozen=True)
class Case:
    id: str
    family: str
    threat: str
    exercise: str
    points: dict
    message: str
    refused: bool = False
    landlock_abi: int = 0
    xfail: str = ""
    remove: tuple = ()
    zip: tuple = ()
    symlink: dict = field(default_factory=dict)
    targets: bool = False
    raw_names: tuple = ()
    note: str = ""
    note_detail: str = ""
    special: dict = field(default_factory=dict)
    rename: dict = field(default_factory=dict)
    hidden_only: bool = False

    @property
    def folder(self) -> Path:
        return CASES / self.id


def load_cases() -> list[Case]:
    """Every case, or those named in ``ATTNKIT_HOSTILE_CASES`` (comma-separated; for trying a few cases)."""
    cases = []
    chosen = set(filter(None, os.environ.get("ATTNKIT_HOSTILE_CASES", "").split(",")))
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir() and (not chosen or p.name in chosen)):
        data = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))
        cases.append(Case(
            id=folder.name, family=data["family"], threat=data["threat"], exercise=data["exercise"],
            points=dict(data.get("points") or {}), message=data["message"], refused=bool(data.get("refused")),
            landlock_abi=int(data.get("landlock_abi", 0)), xfail=data.get("xfail", ""),
            remove=tuple(data.get("remove", ())), zip=tuple(data.get("zip", ())),
            symlink=dict(data.get("symlink") or {}), targets=bool(data.get("targets")),
            raw_names=tuple(data.get("raw_names", ())), note=data.get("note", ""),
            note_detail=data.get("note_detail", ""), special=dict(data.get("special") or {}),
            rename=dict(data.get("rename") or {}), hidden_only=bool(data.get("hidden_only"))))
    return cases


def course(cases: list[Case]) -> tuple[str, ...]:
    """The exercises the catalogue is graded on: the curriculum up to the last exercise a case attacks or expects
    points in, and one more, graded after every attacked one (what a hostile child leaves behind must not reach
    it). Under ``attnkit grade`` the exercises after that one import nothing of the student's and run children like
    it: grading them too as bystanders cost a fifth of the run."""
    from grader import curriculum

    ids = curriculum.ids()
    last = max(ids.index(exercise) for case in cases for exercise in (case.exercise, *case.points))
    return tuple(ids[:last + 2])


def max_points(exercises: tuple[str, ...] | None = None) -> dict[str, float]:
    """Each exercise's points (of ``exercises``, default all)."""
    from grader import curriculum
    from grader.runner import discover

    return {ex: sum(spec.points for spec in discover(ex)) for ex in exercises or curriculum.ids()}


def visible_max_points(exercises: tuple[str, ...] | None = None) -> dict[str, float]:
    """Each exercise's points from its visible checks alone (of ``exercises``, default all)."""
    from grader import curriculum
    from grader.runner import discover

    return {ex: sum(spec.points for spec in discover(ex) if spec.visibility == "visible")
            for ex in exercises or curriculum.ids()}


def expected_points(case: Case, exercises: tuple[str, ...] | None = None) -> dict[str, float | None]:
    """What ``case`` scores in each exercise (of ``exercises``, default all)."""
    full = max_points(exercises)
    if case.refused:
        return {ex: 0 for ex in full}
    return {ex: case.points.get(ex, full[ex]) for ex in full}


# -- building the class folder --------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    root: Path          # everything of this run, traversable by user nobody
    submissions: Path
    out: Path
    canary: Path
    tmp: Path           # the grading run's TMPDIR: must be empty afterwards

    @classmethod
    def make(cls) -> "Layout":
        root = Path(tempfile.mkdtemp(prefix="attnkit-hostile-"))
        os.chmod(root, 0o755)
        layout = cls(root, root / "class", root / "out", root / "canary", root / "tmp")
        for folder in (layout.submissions, layout.tmp):
            folder.mkdir()
            os.chmod(folder, 0o755)
        layout.canary.mkdir()
        os.chmod(layout.canary, 0o777)  # world-writable: only the sandbox keeps a student out of it
        (layout.canary / "canary.txt").write_text(CANARY_TEXT)
        os.chmod(layout.canary / "canary.txt", 0o666)
        return layout


def _module_files(source: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(source.glob("*.py"))}


def targets_module(layout: Layout, student: str) -> bytes:
    lines = [f"OUT = {str(layout.out)!r}", f"CLASS = {str(layout.submissions)!r}",
             f"CANARY = {str(layout.canary)!r}", f"ME = {student!r}", f"CONTROLS = {list(CONTROLS)!r}"]
    return ("# written by the hostile catalogue: where this run's files are\n" + "\n".join(lines) + "\n").encode()


def submission_files(case: Case, layout: Layout) -> dict[str, bytes]:
    """The modules of the case's hand-in: the reference with the case's files applied."""
    files = _module_files(SOLUTIONS)
    for path in sorted(case.folder.iterdir()):
        if path.name in ("expected.yaml", HANDIN_AS_IS) or not path.is_file():
            continue
        if path.name.endswith(".patch.py"):
            module = path.name[: -len(".patch.py")] + ".py"
            files[module] = files[module] + b"\n\n# --- hostile patch ---\n" + path.read_bytes()
        else:
            files[path.name] = path.read_bytes()
    for module in case.remove:
        files.pop(f"{module}.py")
    for old, new in case.rename.items():
        files[new] = files.pop(old)
    if case.targets:
        files["hostile_targets.py"] = targets_module(layout, case.id)
    return files


def _zip_entry_text(spec: dict, layout: Layout) -> str:
    return spec.get("text", "").replace("{CANARY}", str(layout.canary))


def _zip_entry_name(spec: dict, layout: Layout) -> str:
    """``{CANARY}``: this run's canary folder; ``{DEEPn}``: n nested folders; ``{LONGn}``: a name of n letters."""
    name = spec["name"].replace("{CANARY}", str(layout.canary))
    while "{LONG" in name:
        start = name.index("{LONG")
        end = name.index("}", start)
        name = name[:start] + "n" * int(name[start + 5:end]) + name[end + 1:]
    while "{DEEP" in name:
        start = name.index("{DEEP")
        end = name.index("}", start)
        name = name[:start] + "d/" * int(name[start + 5:end]) + name[end + 1:]
    return name


def build_zip(case: Case, layout: Layout, files: dict[str, bytes]) -> Path:
    archive = layout.submissions / f"{case.id}.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(f"handin/{name}", data)
        for spec in case.zip:
            for index in range(int(spec.get("repeat", 0))):  # a flood of entries: one small stored entry each
                zipped.writestr(_zip_entry_name(spec, layout).replace("{i}", str(index)), b"",
                                compress_type=zipfile.ZIP_STORED)
            if "repeat" in spec:
                continue
            if "raw_name" in spec:  # bytes that are not UTF-8: stored without the UTF-8 flag (cp437 on reading)
                info = zipfile.ZipInfo("placeholder")
                info.filename = bytes.fromhex(spec["raw_name"]).decode("cp437")
            else:
                info = zipfile.ZipInfo(_zip_entry_name(spec, layout))
            info.compress_type = zipfile.ZIP_DEFLATED
            if spec.get("symlink"):
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            data = b"\0" * int(spec["zeros"]) if "zeros" in spec else _zip_entry_text(spec, layout).encode()
            zipped.writestr(info, data)
    for spec in case.zip:
        if spec.get("encrypted"):
            mark_encrypted(archive, _zip_entry_name(spec, layout))
    return archive


def mark_encrypted(archive: Path, name: str) -> None:
    """Set the "encrypted" flag of entry ``name`` in its local header and its central directory record (zipfile
    writes no encrypted entry; a reader then asks for a password, as for a real one)."""
    import struct

    with zipfile.ZipFile(archive) as zipped:
        local, start = zipped.getinfo(name).header_offset, zipped.start_dir
    data = bytearray(archive.read_bytes())
    data[local + 6] |= 1
    at = start
    while data[at:at + 4] == b"PK\x01\x02":
        size_name, size_extra, size_comment = struct.unpack_from("<HHH", data, at + 28)
        if data[at + 46:at + 46 + size_name] == name.encode():
            data[at + 8] |= 1
        at += 46 + size_name + size_extra + size_comment
    archive.write_bytes(bytes(data))


def build_case(case: Case, layout: Layout) -> None:
    if (case.folder / HANDIN_AS_IS).exists():
        shutil.copyfile(case.folder / HANDIN_AS_IS, layout.submissions / f"{case.id}.zip")
        return
    files = submission_files(case, layout)
    if case.zip:
        build_zip(case, layout, files)
        return
    folder = layout.submissions / case.id
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    for raw in case.raw_names:  # file names that are not UTF-8
        with open(os.path.join(os.fsencode(folder), bytes.fromhex(raw["name"])), "wb") as handle:
            handle.write(raw.get("text", "").encode())
    for name, target in case.symlink.items():
        (folder / name).unlink(missing_ok=True)
        (folder / name).symlink_to(Path(target.replace("{SOLUTIONS}", str(SOLUTIONS))))
    build_special(case.special, folder)


def build_special(special: dict, folder: Path) -> None:
    if "fifo" in special:
        os.mkfifo(folder / special["fifo"])
    if "sparse_gib" in special:
        with open(folder / special.get("sparse_name", "big.py"), "wb") as sparse:
            sparse.truncate(int(special["sparse_gib"]) << 30)
    if "deep" in special:
        fd = os.open(folder, os.O_RDONLY)
        for _ in range(int(special["deep"])):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as handle:
            handle.write("x = 1\n")
        os.close(fd)


def build_controls(layout: Layout) -> None:
    for name, source in zip(CONTROLS, (SOLUTIONS, EXERCISES)):
        folder = layout.submissions / name
        folder.mkdir()
        for module, data in _module_files(source).items():
            (folder / module).write_bytes(data)


# -- running --------------------------------------------------------------------------------------
@dataclass
class Run:
    status: int
    strays: list
    stdout: str
    stderr: str
    layout: Layout

    def record(self, student: str) -> dict:
        from attnkit.grade import records

        with open(records.record_path(self.layout.out, student), encoding="utf-8") as handle:
            return json.load(handle)

    def gradescope(self, student: str) -> dict:
        from attnkit.grade import records

        with open(records.gradescope_path(self.layout.out, student), encoding="utf-8") as handle:
            return json.load(handle)

    def points(self, student: str) -> dict[str, float]:
        return {e["exercise"]: sum(c["points"] for c in e["checks"]) for e in self.record(student)["exercises"]}

    def notes(self, student: str) -> list[str]:
        """The kinds of problem the record lists for ``student`` (refused, skipped, timeout...)."""
        return [note["kind"] for note in self.record(student).get("notes", [])]

    def messages(self, student: str, exercise: str) -> str:
        record = self.record(student)
        exercises = [e for e in record["exercises"] if e["exercise"] == exercise]
        return "\n".join([record.get("problem", "")] + [c["message"] for e in exercises for c in e["checks"]])


def grade(layout: Layout, *extra: str) -> Run:
    """Grade layout.submissions into layout.out with the CLI (and ``extra`` arguments), under the process census
    of graded_run.py."""
    report = layout.root / "report.json"
    env = dict(os.environ, TMPDIR=str(layout.tmp), PYTHONPATH=str(REPO))
    command = [sys.executable, str(HERE / "graded_run.py"), str(report), str(layout.root), "--",
               str(layout.submissions), "--out", str(layout.out), "--jobs", str(JOBS), "--timeout", str(TIMEOUT),
               "--no-progress", "--no-pictures", *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_LIMIT, cwd=layout.root, env=env,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0 or not report.exists():
        raise RuntimeError(f"graded_run.py failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    data = json.loads(report.read_text())
    report.unlink()
    return Run(data["status"], data["strays"], done.stdout, done.stderr, layout)


# -- looking around -------------------------------------------------------------------------------
def snapshot(root: Path, skip: tuple[Path, ...]) -> dict[str, tuple]:
    """Every entry below ``root`` (but ``skip``): kind, mode, size, mtime and content hash (of files up to
    64 MiB; larger ones by size and mtime). Iterative: a case may nest folders a thousand deep."""
    found = {}
    skipped = {os.fsencode(p) for p in skip}
    todo = [os.fsencode(root)]
    while todo:
        base = todo.pop()
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name)
            if path in skipped:
                continue
            info = os.lstat(path)
            if stat.S_ISDIR(info.st_mode):
                todo.append(path)
            digest = ""
            if stat.S_ISREG(info.st_mode) and info.st_size <= 64 << 20:
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                digest = os.fsdecode(os.readlink(path))
            found[os.fsdecode(os.path.relpath(path, os.fsencode(root)))] = (
                stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode), info.st_size, info.st_mtime_ns, digest)
    return found


def sysv_objects() -> set[tuple[str, str, str]]:
    """(kind, id, owner uid) of every SysV shared memory segment, message queue and semaphore set in sight."""
    found = set()
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as table:
                header, *rows = [line.split() for line in table]
        except OSError:
            continue
        for row in rows:
            fields = dict(zip(header, row))
            found.add((kind, fields.get("shmid") or fields.get("msqid") or fields.get("semid", "?"), fields["uid"]))
    return found


def remove(layout: Layout) -> None:
    from grader import files

    files.remove(layout.root)
