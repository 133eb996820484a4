# Runs one command and prints, as one JSON line, its wall time and what the kernel counted for
# it alone (wait4): user and system CPU in microseconds, and its peak resident memory. GNU time
# gives the same counts but prints CPU in hundredths of a second, too coarse for a 30 ms row;
# Node's process.resourceUsage() counts Node itself, not a child. The command's own children
# (ripgrep under rt grep) are counted with it once it has waited for them, as GNU time does.
# A child forked from Python starts with Python's memory (some 10 MB), which its peak keeps after
# exec: given "time" (GNU time), the command runs under it, and the peak is the one GNU time took
# of its own small fork.
# Usage: python3 rusage.py '{"cmd": [...], "cwd": DIR, "stdin": FILE|null, "stdout": FILE,
#   "stderr": FILE, "time": "/usr/bin/time"|null}' (the environment is this process's own).
import json
import os
import sys
import time

spec = json.loads(sys.argv[1])
flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
out = os.open(spec["stdout"], flags, 0o644)
err = os.open(spec["stderr"], flags, 0o644)
inp = os.open(spec.get("stdin") or os.devnull, os.O_RDONLY)
cmd = spec["cmd"]
peak_file = spec["stderr"] + ".peak"
if spec.get("time"):
    cmd = [spec["time"], "-f", "%M", "-o", peak_file, *cmd]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.dup2(inp, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        if spec.get("cwd"):
            os.chdir(spec["cwd"])
        os.execvpe(cmd[0], cmd, os.environ)
    except BaseException as e:  # the exec failed: say why where stderr goes
        os.write(2, f"rusage.py: {spec['cmd'][0]}: {e}\n".encode())
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
peak = usage.ru_maxrss
if spec.get("time"):
    with open(peak_file) as f:  # "Command exited with non-zero status N" may come first
        peak = int(f.read().split()[-1])
print(
    json.dumps(
        {
            "wallMs": wall * 1000,
            "userMs": usage.ru_utime * 1000,
            "sysMs": usage.ru_stime * 1000,
            "peakKiB": peak,
            "status": os.waitstatus_to_exitcode(status),
        }
    )
)
