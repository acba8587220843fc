// The table and the verdicts of `npm run bench:api` (bench/api.ts): each target's figures against its rule.
import { availableParallelism } from "node:os";
import { type Measurement, OTHER_CPU_WARNING, skewed, table } from "./load";

export const CORES = availableParallelism();
export const P99_LIMIT_MS = 150;
/** All cores against one process: at least this share of a perfect scale-up (1.6 x on two cores). */
export const SCALE_SHARE = 0.8;

export type Check = { target: string; rule: string; value: number; limit: number; pass: boolean };

/** Which server a target loads, and what it is held to. */
type Role = "ceiling" | "one" | "all" | "bare";
const roleOf = (m: Measurement): Role => (m.kind === "ceiling" ? "ceiling" : (m.server as Role));
const operation = (m: Measurement) => (m.name.endsWith("verify") ? "verify" : "initialize");
/** The one-process ceiling (`GET /v1/ping`); the all-cores ping is a reference of its own. */
const oneCeiling = (all: Measurement[]) =>
  all.find((x) => x.kind === "ceiling" && x.server === "one")?.requestsPerSecond;
const allCeiling = (all: Measurement[]) =>
  all.find((x) => x.kind === "ceiling" && x.server === "all")?.requestsPerSecond;

function checksFor(m: Measurement, all: Measurement[]): Check[] {
  const role = roleOf(m);
  if (role === "ceiling" || role === "bare") return [];
  const checks: Check[] = [];
  if (role === "one") {
    const ceiling = oneCeiling(all);
    const min = operation(m) === "initialize" ? 0.5 : 0.7;
    if (ceiling) {
      const ratio = m.requestsPerSecond / ceiling;
      checks.push({
        target: m.name,
        rule: `>= ${min} x ceiling`,
        value: ratio,
        limit: min,
        pass: ratio >= min,
      });
    }
  } else {
    const one = all.find((x) => roleOf(x) === "one" && operation(x) === operation(m))?.requestsPerSecond;
    const min = Math.round(SCALE_SHARE * CORES * 100) / 100;
    if (one) {
      const ratio = m.requestsPerSecond / one;
      checks.push({
        target: m.name,
        rule: `>= ${min} x one process`,
        value: ratio,
        limit: min,
        pass: ratio >= min,
      });
    }
  }
  checks.push({
    target: m.name,
    rule: `p99 <= ${P99_LIMIT_MS} ms`,
    value: m.latencyMs.p99,
    limit: P99_LIMIT_MS,
    pass: m.latencyMs.p99 <= P99_LIMIT_MS,
  });
  return checks;
}

export function report(measurements: Measurement[]): { text: string; checks: Check[] } {
  const ceiling = oneCeiling(measurements);
  const pingScale =
    ceiling && allCeiling(measurements) ? (allCeiling(measurements) as number) / ceiling : undefined;
  const oneOf = (op: string) =>
    measurements.find((m) => roleOf(m) === "one" && operation(m) === op)?.requestsPerSecond;
  const allChecks: Check[] = [];
  const rows = [
    [
      "target",
      "req/s",
      "p50 ms",
      "p99 ms",
      "x ceiling",
      "x one process",
      "non-2xx",
      "server CPU",
      "bench CPU",
      "other CPU",
      "target",
      "result",
    ],
  ];
  for (const m of measurements) {
    const checks = checksFor(m, measurements);
    allChecks.push(...checks);
    const role = roleOf(m);
    const rule =
      role === "ceiling"
        ? "(reference)"
        : role === "bare"
          ? "(no target: without Next)"
          : role === "one"
            ? `>= ${operation(m) === "initialize" ? "0.5" : "0.7"} x ceiling, p99 <= ${P99_LIMIT_MS}`
            : `>= ${Math.round(SCALE_SHARE * CORES * 100) / 100} x one, p99 <= ${P99_LIMIT_MS}`;
    const result =
      checks.length === 0
        ? "-"
        : checks.every((c) => c.pass)
          ? "PASS"
          : `MISS (${checks
              .filter((c) => !c.pass)
              .map((c) => (c.rule.startsWith("p99") ? "p99" : "req/s"))
              .join(", ")})`;
    const one =
      role === "all" ? oneOf(operation(m)) : role === "ceiling" && m.server === "all" ? ceiling : undefined;
    rows.push([
      skewed(m) ? `${m.label} *` : m.label,
      Math.round(m.requestsPerSecond).toString(),
      m.latencyMs.p50.toFixed(0),
      m.latencyMs.p99.toFixed(0),
      ceiling && m.server === "one" ? (m.requestsPerSecond / ceiling).toFixed(3) : "",
      one ? (m.requestsPerSecond / one).toFixed(2) : "",
      String(m.non2xx),
      m.cpu ? (m.cpu.cores[m.server] ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.cores.bench ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.otherCores + m.cpu.stealCores).toFixed(2) : "n/a",
      rule,
      result,
    ]);
  }
  const notes: string[] = [];
  for (const op of ["initialize", "verify"]) {
    const next = oneOf(op);
    const bare = measurements.find((m) => roleOf(m) === "bare" && operation(m) === op)?.requestsPerSecond;
    if (next && bare) notes.push(`Next ${op} = ${(next / bare).toFixed(2)} x bare ${op}`);
  }
  if (pingScale) {
    const scales = ["initialize", "verify"].flatMap((op) => {
      const one = oneOf(op);
      const all = measurements.find((m) => roleOf(m) === "all" && operation(m) === op)?.requestsPerSecond;
      return one && all ? [`${op} ${(all / one / pingScale).toFixed(2)}`] : [];
    });
    notes.push(
      `On ${CORES} workers the framework's own GET /v1/ping scales ${pingScale.toFixed(2)} x on this machine` +
        (scales.length ? `; each operation's all-cores ratio as a share of that: ${scales.join(", ")}` : ""),
    );
  }
  if (measurements.some(skewed)) {
    notes.push(
      `* other jobs on the machine used over ${OTHER_CPU_WARNING} cores during this row's run: its figures are skewed`,
    );
  }
  notes.push(
    `CPU columns: cores' worth over the measured run (machine: ${CORES}) used by the server (with its cluster ` +
      "workers), by this process (autocannon) and by anything else; a one-process server near 1.0 is bound " +
      "by its one JS thread (the part above 1.0 is V8's GC and compiler threads). On all cores the load " +
      "generator shares the machine with the workers, so the ratio is below what the workers alone could do",
  );
  return { text: `${table(rows)}\n\n${notes.join(".\n")}.`, checks: allChecks };
}
