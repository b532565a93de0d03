#!/usr/bin/env python3
"""bench/rusage.py OUT CMD: run CMD with sh; write "WALL_S MAXRSS_KB CPU_S" to OUT, the CPU
being user + sys of CMD and its children to the microsecond (GNU time rounds to 10 ms, as
long as `wc -l` takes). Exits with CMD's status."""
import os
import sys
import time

out = sys.argv[1]
start = time.monotonic()
# GNU time (small) runs sh, so the peak RSS is not this process's size: a child's high-water
# mark starts from its parent's. wait4 gives this child's own CPU: none of the children this
# process (or a shell that exec'd it) waited for before.
pid = os.posix_spawnp("/usr/bin/time", ["time", "-f", "%M", "-o", out + ".rss", "sh", "-c", sys.argv[2]],
                      os.environ)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - start
with open(out + ".rss") as f:
    kb = int(f.read().split()[-1])  # after "Command exited with non-zero status N"
os.unlink(out + ".rss")
with open(out, "w") as f:
    f.write("%.3f %d %.4f\n" % (wall, kb, ru.ru_utime + ru.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status) % 256 if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
