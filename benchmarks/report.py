"""The benchmark tables, as plain text (rich tables rendered without colour)."""
from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table


def _table(title: str, columns: list[str], rows: list[list]) -> Table:
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*[str(cell) for cell in row])
    return table


def _grading(rows: list[dict]) -> Table:
    body = [[r["size"], r["jobs"], f"{r['seconds']:.1f}", f"{r['per_second']:.1f}", f"{r['ms_per_check']:.2f}",
             f"{r['peak_mb']:.0f}", f"{r['graded']}/{r['size']}"] for r in rows]
    by_jobs: dict[int, list[dict]] = {}
    for r in rows:
        by_jobs.setdefault(r["jobs"], []).append(r)
    for jobs, runs in by_jobs.items():
        if len(runs) > 1:
            small, large = runs[0], runs[-1]
            growth = (large["seconds"] / small["seconds"]) / (large["size"] / small["size"])
            body.append([f"scaling {small['size']}->{large['size']}", jobs, "", "", "", "",
                         f"x{growth:.2f} of linear"])
    return _table("Class grading (attnkit grade, synthetic class, --timeout 1)",
                  ["submissions", "jobs", "seconds", "subs/s", "ms/check", "peak MiB (PSS)", "graded"], body)


def _nbgrader(data: dict) -> Table:
    if data.get("skipped"):
        return _table("Side by side with nbgrader", ["skipped"], [[data["skipped"]]])
    return _table("Side by side with nbgrader autograde (same submissions)",
                  ["tool", "submissions", "seconds", "s/submission", "ms/check"],
                  [[row["tool"], row["submissions"], f"{row['seconds']:.1f}", f"{row['per_submission_s']:.3f}",
                    f"{row['ms_per_check']:.2f}"] for row in data["rows"]]
                  + [["attnkit / nbgrader", "", "", f"x{data['ratio_per_submission']:.0f} faster",
                      f"x{data['ratio_per_check']:.0f} faster"]])


def _versus(data: dict) -> Table:
    if data.get("skipped"):
        return _table("Side by side with an earlier revision", ["skipped"], [[data["skipped"]]])
    rows = []
    for group in data["classes"]:
        for row in group["rows"]:
            tool = data["revision"] if row["tool"] == "earlier" else row["tool"]
            rows.append([group["mix"], tool, f"{row['seconds']:.2f}", f"{row['per_second']:.2f}", row["checks"],
                         f"{row['ms_per_check']:.2f}"])
        rows.append([group["mix"], "speed-up", f"x{group['speedup']:.2f}", "", "", f"x{group['ratio_per_check']:.2f}"])
    return _table(f"Side by side with {data['revision']} ({data['size']} submissions per class, --jobs 2, its "
                  f"{len(data['exercises'])} exercises; medians of {data['repeats']})",
                  ["class", "grader", "seconds", "subs/s", "checks/sub", "ms/check"], rows)


def render(results: dict) -> str:
    console = Console(file=io.StringIO(), width=110, color_system=None, force_terminal=False)
    m = results["machine"]
    console.print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, Python {m['python']}")
    if "grading" in results:
        console.print(_grading(results["grading"]))
    if "nbgrader" in results:
        console.print(_nbgrader(results["nbgrader"]))
    if "isolation" in results:
        i = results["isolation"]
        console.print(_table("Isolation overhead (full suite on the reference, one submission)",
                             ["mode", "ms/submission"],
                             [["in-process (floor)", f"{i['in_process_ms']:.1f}"],
                              ["sandboxed", f"{i['isolated_ms']:.1f}"], ["ratio", f"x{i['ratio']:.2f}"]]
                             + ([["in-process, CPU", f"{i['in_process_cpu_ms']:.1f}"],
                                 ["sandboxed, CPU (grader, zygote, children)", f"{i['isolated_cpu_ms']:.1f}"],
                                 ["ratio, CPU", f"x{i['cpu_ratio']:.2f}"],
                                 ["a child's life, CPU (ms each)", f"{i['child_life_cpu_ms']:.2f}"],
                                 ["a round trip, CPU (ms each)", f"{i['round_trip_cpu_ms']:.3f}"]]
                                if "cpu_ratio" in i else [])))
    if "latency" in results:
        console.print(_table("Student latency (attnkit check, wall from process start; CPU of the whole process tree)",
                             ["implementation", "median s", "min s", "median CPU s", "exit"],
                             [[r["impl"], f"{r['median_s']:.3f}", f"{r['min_s']:.3f}",
                               f"{r['cpu_s']:.3f}" if "cpu_s" in r else "-", r["status"]]
                              for r in results["latency"]]))
    if "tiled" in results:
        t = results["tiled"]
        console.print(_table("Tiled vs plain attention (reference, float64, block 64)",
                             ["n", "plain ms", "tiled ms", "time ratio", "plain MiB", "tiled MiB", "tiled/plain mem"],
                             [[r["n"], f"{r['plain_ms']:.1f}", f"{r['tiled_ms']:.1f}", f"x{r['time_ratio']:.2f}",
                               f"{r['plain_peak_mb']:.1f}", f"{r['tiled_peak_mb']:.2f}", f"{r['memory_percent']:.2f}%"]
                              for r in t["rows"]]))
        console.print(f"largest n in 1 GiB: plain {t['fits_in_1gib']['plain']:,}, tiled {t['fits_in_1gib']['tiled']:,} "
                      f"({t['note']})")
    if "generation" in results:
        g = results["generation"]
        console.print(_table(f"Cached vs uncached generate (reference, d = {g['d']}, {g['n_layer']} layers, "
                             f"{g['prompt']}-token prompt, {g['n_new']} new tokens)",
                             ["decoding", "cached ms", "uncached ms", "uncached/cached", "same tokens"],
                             [[r["mode"], f"{r['cached_ms']:.0f}", f"{r['uncached_ms']:.0f}", f"x{r['speedup']:.1f}",
                               "yes" if r["identical"] else "NO"] for r in g["rows"]]))
    if "versus" in results:
        console.print(_versus(results["versus"]))
    return console.file.getvalue()
