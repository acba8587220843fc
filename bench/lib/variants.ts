// BENCH_VARIANTS of `npm run bench:api`: the one-process app started once per named variant, each with an
// environment of its own, loaded one after the other inside every round so that the machine's drift falls on
// all of them alike. docs/decisions/017-custom-infrastructure.md reads such a table.
import { join } from "node:path";
import type { ServerOptions } from "./api-servers";
import { startNext } from "./api-servers";
import {
  createReferences,
  expectStatus,
  INITIALIZE_BODY,
  initializeLoad,
  request,
  signupMerchant,
  verifyLoad,
} from "./fixtures";
import { type LoadSettings, type Measurement, measure, medianRun, skewed, type Target, table } from "./load";

/** A variant: its name and what it changes in the server's environment. */
export type Variant = { name: string; env: Record<string, string> };

/**
 * The operations loaded on each variant. `checkout` is the pay page's status poll (GET
 * /v1/payment/checkout/verify, access-code auth) with known codes from one client address, more connections
 * than the address's access-code budget (30), what the rate-limit queue is for (see docs/decisions/017). `guess` is the same route
 * with unknown codes from one address: once the budget is spent, every answer is a 429.
 */
export const OPERATIONS = ["initialize", "verify", "checkout", "guess"] as const;
type Operation = (typeof OPERATIONS)[number];

const ACCESS_CODES = 20;

/**
 * `BENCH_VARIANTS`: variants separated by `;`, each a name, then optionally `:` and the environment it sets as
 * space-separated `NAME=value` pairs: `base; low-budget: RATE_LIMIT_ACCESS_CODE_BURST=10`.
 */
export function parseVariants(raw: string): Variant[] {
  const variants = raw
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((spec): Variant => {
      const colon = spec.indexOf(":");
      const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
      if (!/^[\w.-]+$/.test(name))
        throw new Error(`BENCH_VARIANTS: "${name}" is not a name (letters, digits, _ . -)`);
      const assignments =
        colon < 0
          ? []
          : spec
              .slice(colon + 1)
              .trim()
              .split(/\s+/)
              .filter(Boolean);
      const env = Object.fromEntries(
        assignments.map((a) => {
          const eq = a.indexOf("=");
          if (eq < 1) throw new Error(`BENCH_VARIANTS: "${a}" in ${name} is not NAME=value`);
          return [a.slice(0, eq), a.slice(eq + 1)];
        }),
      );
      return { name, env };
    });
  const names = variants.map((v) => v.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) throw new Error(`BENCH_VARIANTS: ${twice.join(", ")} named twice`);
  return variants;
}

export function parseOperations(raw: string): Operation[] {
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const known = (n: string): n is Operation => (OPERATIONS as readonly string[]).includes(n);
  const unknown = names.filter((n) => !known(n));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(
      `BENCH_VARIANT_OPERATIONS: unknown ${unknown.join(", ")} (known: ${OPERATIONS.join(", ")})`,
    );
  return names.filter(known);
}

/** Transactions with their access codes, for the checkout poll. */
async function accessCodes(url: string, key: string, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await request(`${url}/v1/payment/initialize`, {
      method: "POST",
      headers: { "x-api-key": key },
      body: INITIALIZE_BODY,
    });
    expectStatus(`initialize on ${url}`, res, 201);
    const code = (res.body.data as { accessCode?: unknown } | undefined)?.accessCode;
    if (typeof code !== "string") throw new Error(`initialize on ${url}: no data.accessCode`);
    codes.push(code);
  }
  return codes;
}

/** A client address of its own per variant, operation and round, so that no run inherits a spent budget. */
function address(variant: number, operation: Operation, round: number): string {
  return `10.${OPERATIONS.indexOf(operation)}.${round}.${variant + 1}`;
}

type Server = { name: string; url: string; key: string; refs: string[]; codes: string[] };

function targetFor(server: Server, index: number, operation: Operation, round: number): Target {
  const base = {
    name: `${server.name}/${operation}`,
    label: `${server.name} ${operation}`,
    kind: operation,
    server: server.name,
  };
  const from = { "x-forwarded-for": address(index, operation, round) };
  switch (operation) {
    case "initialize":
      return { ...base, options: initializeLoad(server.url, server.key) };
    case "verify":
      return { ...base, options: verifyLoad(server.url, server.key, server.refs) };
    case "checkout":
      return {
        ...base,
        options: {
          url: server.url,
          requests: server.codes.map((code) => ({
            method: "GET" as const,
            path: "/v1/payment/checkout/verify",
            headers: { ...from, "x-access-code": code },
          })),
        },
      };
    case "guess":
      return {
        ...base,
        options: {
          url: server.url,
          requests: Array.from({ length: 20 }, (_, i) => ({
            method: "GET" as const,
            path: "/v1/payment/checkout/verify",
            headers: { ...from, "x-access-code": `Guess${String(i).padStart(3, "0")}aaaaaaaaaaaaaaaaaaaaaa` },
          })),
        },
      };
  }
}

/**
 * Start every variant's server on a fresh SQLite file in `dir`, then run `rounds` rounds; in each, every
 * operation on every variant, the variants' order rotated from round to round. Returns the printed report.
 */
export async function runVariants(input: {
  variants: Variant[];
  operations: Operation[];
  dir: string;
  rounds: number;
  settings: LoadSettings;
  servers: ServerOptions;
  pids: () => Record<string, number | undefined>;
  alive: () => void;
}): Promise<{ text: string; runs: Measurement[]; medians: Measurement[] }> {
  const { variants, operations, rounds, settings } = input;
  console.log(`Variants: ${variants.map((v) => v.name).join(", ")}; operations: ${operations.join(", ")}.`);
  const servers: Server[] = [];
  // One at a time: several Next processes starting together on two cores time out.
  for (const { name, env } of variants) {
    const started = await startNext(name, join(input.dir, `${name}.db`), 1, [], input.servers, {
      ...env,
      // The checkout and guess loads name their client address in X-Forwarded-For.
      TRUST_PROXY: "1",
    });
    const key = await signupMerchant(started.url, `bench-${name}@example.com`);
    const refs = await createReferences(name, started.url, key, 20);
    const codes = operations.some((o) => o === "checkout")
      ? await accessCodes(started.url, key, ACCESS_CODES)
      : [];
    servers.push({ name, url: started.url, key, refs, codes });
  }
  const runs: Measurement[] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`Variants, round ${round} of ${rounds}:`);
    const order = servers.map((_, i) => servers[(i + round - 1) % servers.length] as Server);
    for (const operation of operations) {
      for (const server of order) {
        const target = targetFor(server, servers.indexOf(server), operation, round);
        runs.push({ ...(await measure(target, settings, input.pids)), round });
        input.alive();
      }
    }
  }
  const medians: Measurement[] = [];
  const rows = [
    [
      "variant",
      "operation",
      "req/s (median round)",
      "rounds' req/s",
      "p50 ms",
      "p99 ms",
      "vs base",
      "2xx",
      "429",
      "server CPU",
      "other CPU",
    ],
  ];
  for (const operation of operations) {
    const baseRps = runs.filter((r) => r.name === `base/${operation}`).length
      ? medianRun(runs.filter((r) => r.name === `base/${operation}`)).requestsPerSecond
      : undefined;
    for (const server of servers) {
      const mine = runs.filter((r) => r.name === `${server.name}/${operation}`);
      const m = medianRun(mine);
      medians.push(m);
      const count = (pred: (code: number) => boolean) =>
        Object.entries(m.statusCodes)
          .filter(([code]) => pred(Number(code)))
          .reduce((n, [, c]) => n + c, 0);
      rows.push([
        server.name,
        operation,
        Math.round(m.requestsPerSecond).toString(),
        mine.map((r) => `${Math.round(r.requestsPerSecond)}${skewed(r) ? "*" : ""}`).join(", "),
        m.latencyMs.p50.toFixed(0),
        m.latencyMs.p99.toFixed(0),
        baseRps ? `${((m.requestsPerSecond / baseRps - 1) * 100).toFixed(1)} %` : "",
        String(count((c) => c >= 200 && c < 300)),
        String(count((c) => c === 429)),
        m.cpu ? (m.cpu.cores[m.server] ?? 0).toFixed(2) : "n/a",
        m.cpu ? (m.cpu.otherCores + m.cpu.stealCores).toFixed(2) : "n/a",
      ]);
    }
  }
  const text = `${table(rows)}\n\nEach row: the median-req/s round of ${rounds} (* = skewed by other jobs); its p50, p99, status counts and CPU. "other CPU": cores' worth used by other processes on the machine during that run.`;
  return { text, runs, medians };
}
