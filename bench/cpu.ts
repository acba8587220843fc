// CPU accounting for bench/api.ts from /proc (Linux): how much of the machine each process used during a run,
// and how much went to processes that are not part of the bench (another job on the box skews the figures;
// the load generator shares the machine with the server by design). Returns undefined where /proc is absent.
import { existsSync, readdirSync, readFileSync } from "node:fs";

type Machine = { total: number; busy: number; steal: number; iowait: number };
type Ticks = Machine & { processes: Map<number, number> };

function machineTicks(): Machine {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
  const [, ...fields] = line.trim().split(/\s+/);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    fields.map(Number);
  return {
    total: user + nice + system + idle + iowait + irq + softirq + steal,
    busy: user + nice + system + irq + softirq,
    steal,
    iowait,
  };
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start at ") "; utime and stime are 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

/**
 * A process and every process under it (a cluster's primary and its workers), read from /proc, except the
 * subtrees of `named` processes, which are counted under their own names (the bench starts the servers).
 */
function treeTicks(pid: number, named: Set<number>): number {
  let ticks = processTicks(pid);
  for (const child of children(pid)) if (!named.has(child)) ticks += treeTicks(child, named);
  return ticks;
}

function children(pid: number): number[] {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

export type CpuUsage = {
  /** Cores' worth of CPU over the run, per named process (1.0 = one core fully busy). */
  cores: Record<string, number>;
  /** Cores' worth used by everything else on the machine (other jobs, the kernel's own threads). */
  otherCores: number;
  /** Cores' worth of hypervisor steal. */
  stealCores: number;
  /** Cores' worth of time the machine sat idle with disk I/O outstanding (anyone's: ours or other jobs'). */
  iowaitCores: number;
  machineCores: number;
};

export class CpuMeter {
  #start: Ticks | undefined;
  constructor(
    private readonly pids: Record<string, number | undefined>,
    private readonly cpuCount: number,
  ) {}

  #sample(): Ticks | undefined {
    if (!existsSync("/proc/stat")) return undefined;
    const processes = new Map<number, number>();
    // Each named process with the processes under it: a cluster's workers count toward their server.
    const named = new Set(Object.values(this.pids).filter((pid): pid is number => pid !== undefined));
    for (const pid of named) processes.set(pid, treeTicks(pid, named));
    return { ...machineTicks(), processes };
  }

  start() {
    this.#start = this.#sample();
  }

  stop(): CpuUsage | undefined {
    const start = this.#start;
    const end = this.#sample();
    if (!start || !end || end.total <= start.total) return undefined;
    const perCore = (end.total - start.total) / this.cpuCount;
    const cores: Record<string, number> = {};
    let ours = 0;
    for (const [name, pid] of Object.entries(this.pids)) {
      if (!pid) continue;
      // A process that exited during the run reads 0 at the end: count nothing for it rather than minus.
      const used = Math.max(0, (end.processes.get(pid) ?? 0) - (start.processes.get(pid) ?? 0));
      ours += used;
      cores[name] = round(used / perCore);
    }
    return {
      cores,
      otherCores: round(Math.max(0, end.busy - start.busy - ours) / perCore),
      stealCores: round((end.steal - start.steal) / perCore),
      iowaitCores: round((end.iowait - start.iowait) / perCore),
      machineCores: this.cpuCount,
    };
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
