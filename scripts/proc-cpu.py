#!/usr/bin/env python3
"""Runs a command and says where its CPU time went: per process and per thread, from /proc.

    scripts/proc-cpu.py [--json FILE] [--interval S] -- COMMAND [ARGS...]

Prints, when the command has ended:
  - wall time, and CPU time (user + sys) of the whole process tree, exact (wait4's rusage, which
    counts every descendant the tree waited for);
  - 'start': the command's own CPU time before its first child process appeared (for a JVM that
    starts ffmpeg: the JVM's start, class loading and graph set-up, before the camera's ffmpeg);
  - per thread (name from /proc/PID/task/TID/comm, pooled by name with digits folded to '#'),
    the CPU time last seen by sampling every --interval seconds (0.1), so a thread that ended
    between two samples loses at most its last interval.

Linux only. Used by scripts/camera-bench.sh; alone, it answers "what costs beyond ffmpeg's own
decode" for any graph: scripts/proc-cpu.py -- java -jar tools/target/framewire.jar run G.pbtxt
"""
import json
import os
import re
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def stat_fields(path):
    """utime+stime in seconds and the ppid of a /proc/.../stat file, or None if it is gone."""
    try:
        with open(path, "rb") as f:
            raw = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    rparen = raw.rfind(")")
    comm = raw[raw.find("(") + 1:rparen]
    rest = raw[rparen + 2:].split()
    # rest[0] is field 3 (state); utime is field 14, stime 15, ppid 4
    return comm, int(rest[1]), (int(rest[11]) + int(rest[12])) / TICK


def descendants(root):
    """The pids of root's process tree, root first (a scan of /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            s = stat_fields("/proc/%s/stat" % entry)
            if s is not None:
                children.setdefault(s[1], []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def sample(root, threads, processes):
    tree = descendants(root)
    for pid in tree:
        p = stat_fields("/proc/%d/stat" % pid)
        if p is None:
            continue
        processes[pid] = (p[0], p[2])
        try:
            tids = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for tid in tids:
            t = stat_fields("/proc/%d/task/%s/stat" % (pid, tid))
            if t is not None:
                threads[(pid, int(tid))] = (p[0], t[0], t[2])
    return tree


def main(argv):
    json_out, interval = None, 0.1
    while argv and argv[0] != "--":
        if argv[0] == "--json":
            json_out, argv = argv[1], argv[2:]
        elif argv[0] == "--interval":
            interval, argv = float(argv[1]), argv[2:]
        else:
            sys.exit("proc-cpu.py: unknown option %s; usage: proc-cpu.py [--json FILE] [--interval S] -- CMD..." % argv[0])
    command = argv[1:]
    if not command:
        sys.exit("proc-cpu.py: no command; usage: proc-cpu.py [--json FILE] [--interval S] -- CMD...")
    threads, processes = {}, {}
    start_cpu = None
    t0 = time.monotonic()
    child = subprocess.Popen(command)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid == child.pid:
            break
        tree = sample(child.pid, threads, processes)
        if start_cpu is None and len(tree) > 1 and child.pid in processes:
            start_cpu = processes[child.pid][1]
        time.sleep(interval)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    pooled = {}
    for (pid, tid), (proc, name, secs) in threads.items():
        key = "%s/%s" % (proc, re.sub(r"\d+", "#", name))
        pooled[key] = pooled.get(key, 0.0) + secs
    by_process = {}
    for pid, (name, secs) in processes.items():
        by_process[name] = by_process.get(name, 0.0) + secs
    result = {"command": command, "exit": code, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
              "user_s": round(usage.ru_utime, 3), "sys_s": round(usage.ru_stime, 3),
              "start_cpu_s": None if start_cpu is None else round(start_cpu, 3),
              "processes": {k: round(v, 2) for k, v in sorted(by_process.items(), key=lambda e: -e[1])},
              "threads": {k: round(v, 2) for k, v in sorted(pooled.items(), key=lambda e: -e[1]) if v > 0}}
    if json_out:
        with open(json_out, "w") as f:
            json.dump(result, f, indent=1)
    else:
        print(json.dumps(result, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
