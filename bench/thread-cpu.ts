// Preloaded (node --import) into a command the cli group measures: just before the process ends
// (or terminates its first worker, whose thread would then be gone), writes the CPU time of every
// thread of the process, from /proc, as JSON to the file BENCH_THREAD_CPU_FILE names. Wall time
// on a shared machine says little about how well two threads could scale; CPU time per thread
// does: a run on 2 cores cannot take less wall time than half of its total CPU time.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isMainThread, Worker } from "node:worker_threads";

/** CPU milliseconds (user + system) of each thread; `main` is the process's first thread. */
export interface ThreadCpu {
  main: number;
  others: number[];
}

// Fields 14 and 15 of /proc/.../stat (utime, stime), in clock ticks of 10 ms on Linux.
function ticksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function snapshot(): ThreadCpu {
  const main = String(process.pid);
  const result: ThreadCpu = { main: 0, others: [] };
  for (const tid of readdirSync("/proc/self/task")) {
    let ms: number;
    try {
      ms = ticksOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8"));
    } catch {
      continue; // the thread ended between the listing and the read
    }
    if (tid === main) result.main = ms;
    else if (ms > 0) result.others.push(ms);
  }
  result.others.sort((a, b) => b - a);
  return result;
}

const file = process.env.BENCH_THREAD_CPU_FILE;
if (isMainThread && file !== undefined) {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeFileSync(file, JSON.stringify(snapshot()));
  };
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function (this: Worker) {
    write();
    return terminate.call(this);
  };
  process.on("exit", write);
}
