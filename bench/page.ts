// npm run bench:page - the pages a customer or merchant arrives at cold (the hosted checkout, a payment link's
// start page, the console's sign-in) against budgets relative to the framework's floor on the same machine.
//
//  1. Uses the build in NEXT_DIST_DIR (default .next), building it first when it is missing or older than
//     the sources (scripts/prepare.mjs decides, as it does for npm start and npm test), and builds
//     bench/reference-app the same way (its own four source files).
//  2. Starts `node server.mjs` on a free port and a fresh SQLite file, signs up a merchant and initializes a
//     transaction.
//  3. First-load JS: fetches the checkout page's HTML, then every script it runs (a <script src>, or a chunk the
//     front's paint-first loader adds after the first paint; not the `nomodule`
//     polyfills, which modern browsers skip), and sums their gzip sizes (zlib level 6, what servers send).
//  4. Starts the reference: bench/reference-app, a bare page of the same Next and React versions
//     with one client component.
//  5. Lighthouse (mobile form factor, simulated throttling: its defaults) in Debian's Chromium, performance and
//     accessibility, BENCH_PAGE_RUNS rounds; each round runs the reference and then every page (R A B C R A B C
//     ...), so a machine that slows down mid-run slows both sides alike. Medians per page.
//  6. Budgets: performance ≥ the reference's − 2, LCP ≤ 1.2 s, TBT ≤ 1.3 × the reference's (+ 50 ms, for a
//     reference at 0), accessibility 100; the checkout's first-load JS ≤ 145 kB gzip. Prints the absolute
//     figures beside them, writes bench/results/page-<timestamp>.json, stops the servers.
//
// Environment:
//   NEXT_DIST_DIR=.next     which build to serve
//   CHROME_PATH=/usr/bin/chromium
//   BENCH_PAGE_RUNS=5       Lighthouse rounds (each page and the reference once per round; medians reported)
//   BENCH_PAGE_KEEP_REPORTS=1  also write each full Lighthouse report to bench/results/lighthouse-<ts>.json
//   BENCH_PAGE_CPU_SLOWDOWN=4  Lighthouse's simulated CPU slowdown (its mobile default); the observed task
//                           times are multiplied by it, so 8 is what this page scores on a machine half as fast
//
// Exit code: 0 when every budget passes, 1 on a MISS or when something could not be measured.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loaderCalls } from "../lib/http/paint-first.mjs";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { ensureBuilt } from "../scripts/prepare.mjs";

const root = resolve(import.meta.dirname, "..");
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";
const RUNS = Math.max(1, Number(process.env.BENCH_PAGE_RUNS ?? 5) || 5);
const CHROME_PATH = process.env.CHROME_PATH || "/usr/bin/chromium";
/** Lighthouse's simulated CPU slowdown (its mobile default is 4); 8 shows what a machine half as fast scores. */
const CPU_SLOWDOWN = process.env.BENCH_PAGE_CPU_SLOWDOWN
  ? Number(process.env.BENCH_PAGE_CPU_SLOWDOWN)
  : undefined;
if (CPU_SLOWDOWN !== undefined && !(CPU_SLOWDOWN >= 1))
  throw new Error("BENCH_PAGE_CPU_SLOWDOWN must be a number >= 1");
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const BUDGET = {
  firstLoadKiB: 145,
  /** Points below the reference's median performance score a page may be. */
  performanceBelowReference: 2,
  lcpMs: 1_200,
  /** TBT ≤ this × the reference's, plus TBT_SLACK_MS (a reference at 0 ms would otherwise allow nothing). */
  tbtTimesReference: 1.3,
  tbtSlackMs: 50,
  accessibility: 100,
};
const REFERENCE_DIR = join(import.meta.dirname, "reference-app");

// ---------------------------------------------------------------------------------------------------------
// Server

/** Where the checkout is served (set once the server answers). */
let BASE = "";

async function startCheckoutServer(database: string): Promise<ServerProcess> {
  const server = await startServer({
    name: "page",
    env: {
      NEXT_DIST_DIR: DIST_DIR,
      DATABASE_URL: `file:${database}`,
      APP_SECRET: "bench-page-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      SEED_DEMO: "0",
      WEBHOOK_RELAY: "0",
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
    },
    onOutput: (text) => process.stderr.write(text.includes('"level":"info"') ? "" : text),
  });
  BASE = server.url;
  return server;
}

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { status: string; data: T; message?: string };
  if (!res.ok || json.status !== "success") throw new Error(`POST ${path}: ${res.status} ${json.message}`);
  return json.data;
}

/** A merchant with a checkout and a payment link: the pages a customer arrives at. */
async function createPages(): Promise<{ checkout: string; link: string; login: string }> {
  const signup = await post<{ accessToken: string; keys: { test: { secretKey: string } } }>(
    "/v1/merchants/auth/signup",
    {
      businessName: "Bench Store",
      email: `bench-page-${Date.now()}@example.com`,
      password: "correct horse battery staple",
    },
  );
  const session = await post<{ checkoutUrl: string }>(
    "/v1/payment/initialize",
    { amount: "5000.00", email: "customer@example.com", callbackUrl: "https://merchant.example/return" },
    { "x-api-key": signup.keys.test.secretKey },
  );
  const link = await post<{ paymentLinkUrl: string }>(
    "/v1/merchants/payment-links",
    { title: "Ankara tote bag", amount: "18500.00" },
    { authorization: `Bearer ${signup.accessToken}` },
  );
  return { checkout: session.checkoutUrl, link: link.paymentLinkUrl, login: `${BASE}/dashboard/login` };
}

/** What bench/reference-app is built from (scripts/prepare.mjs rebuilds it when one is newer than its build). */
const REFERENCE_SOURCES = ["next.config.mjs", "app/layout.jsx", "app/page.jsx", "app/counter.jsx"];

/** Serve bench/reference-app's build (made by main, before any server starts). */
async function startReference(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = await startServer({
    name: "reference",
    script: [join(root, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1"],
    cwd: REFERENCE_DIR,
    readyPath: "/",
    env: {},
  });
  return { url: `${server.url}/`, stop: server.stop };
}

// ---------------------------------------------------------------------------------------------------------
// Measurements

type Script = { src: string; gzipBytes: number; rawBytes: number };

async function firstLoadJs(url: string): Promise<Script[]> {
  const html = await (await fetch(url)).text();
  const tags = html.match(/<script\b[^>]*>/gi) ?? [];
  // The app's chunks are added by the front's paint-first loader (lib/http/paint-first.mjs), one
  // `self.__paintFirst([src, crossOrigin, integrity, run])` call each; run = 1 for a script the page runs, 0 for
  // a chunk React only preloads (not counted, as it was not when it was a <link rel=preload>). A page the front
  // did not rewrite (the reference) has <script src>.
  const queued = loaderCalls(html)
    .filter(([, , , run]) => run === 1)
    .map(([src]) => src);
  const sources = [
    ...new Set([
      ...tags
        .filter((tag) => !/\bnomodule\b/i.test(tag))
        .map((tag) => /\bsrc="([^"]+)"/i.exec(tag)?.[1])
        .filter((src): src is string => Boolean(src)),
      ...queued,
    ]),
  ];
  if (sources.length === 0) throw new Error("the checkout page loads no <script src>: is it the right page?");
  const scripts: Script[] = [];
  for (const src of sources) {
    const res = await fetch(new URL(src.replaceAll("&amp;", "&"), url));
    if (!res.ok) throw new Error(`GET ${src}: ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    scripts.push({ src, rawBytes: bytes.length, gzipBytes: gzipSync(bytes).length });
  }
  return scripts;
}

type LighthouseRun = {
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's simulated time to interactive: not a budget, shown beside LCP (code loads after the paint). */
  ttiMs: number;
  metrics: Record<string, string>;
  failedAudits: string[];
};

function lighthouse(url: string): LighthouseRun {
  const result = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/lighthouse/cli/index.js"),
      url,
      "--only-categories=performance,accessibility",
      "--form-factor=mobile",
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      `--chrome-flags=${CHROME_FLAGS.join(" ")}`,
      ...(CPU_SLOWDOWN ? [`--throttling.cpuSlowdownMultiplier=${CPU_SLOWDOWN}`] : []),
    ],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, CHROME_PATH } },
  );
  if (result.status !== 0)
    throw new Error(`lighthouse failed (${result.status}): ${result.stderr.slice(-2000)}`);
  const report = JSON.parse(result.stdout) as {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
    audits: Record<
      string,
      { score: number | null; displayValue?: string; numericValue?: number; title: string }
    >;
    runtimeError?: { message: string };
  };
  if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
  // The whole report, for a look at what a score was made of (LCP element, long tasks, the network graph).
  if (process.env.BENCH_PAGE_KEEP_REPORTS === "1") {
    mkdirSync(join(root, "bench/results"), { recursive: true });
    writeFileSync(
      join(root, `bench/results/lighthouse-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      result.stdout,
    );
  }
  const score = (c: string) => Math.round((report.categories[c]?.score ?? 0) * 100);
  const metric = (id: string) => report.audits[id]?.displayValue ?? "?";
  const failedAudits = (report.categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && report.audits[ref.id]?.score === 0)
    .map((ref) => `${ref.id}: ${report.audits[ref.id]?.title}`);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    lcpMs: Math.round(report.audits["largest-contentful-paint"]?.numericValue ?? Number.NaN),
    tbtMs: Math.round(report.audits["total-blocking-time"]?.numericValue ?? Number.NaN),
    ttiMs: Math.round(report.audits.interactive?.numericValue ?? Number.NaN),
    metrics: {
      FCP: metric("first-contentful-paint"),
      LCP: metric("largest-contentful-paint"),
      TBT: metric("total-blocking-time"),
      CLS: metric("cumulative-layout-shift"),
      SI: metric("speed-index"),
      TTI: metric("interactive"),
    },
    failedAudits,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

// ---------------------------------------------------------------------------------------------------------

type Page = { name: string; url: string; runs: LighthouseRun[] };

async function main() {
  if (!existsSync(CHROME_PATH)) throw new Error(`Chromium is missing at ${CHROME_PATH} (set CHROME_PATH)`);
  ensureBuilt({ distDir: DIST_DIR });
  ensureBuilt({ dir: REFERENCE_DIR, distDir: ".next", sources: REFERENCE_SOURCES });
  const database = join(tmpdir(), `paygate-bench-page-${process.pid}-${Date.now()}.db`);
  const server = await startCheckoutServer(database);
  const reference = await startReference();
  try {
    const urls = await createPages();
    console.log(`Checkout page: ${urls.checkout.replace(/\/pay\/.*/, "/pay/<accessCode>")}\n`);

    const scripts = await firstLoadJs(urls.checkout);
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    console.log("First-load JavaScript of the checkout (gzip):");
    for (const s of scripts)
      console.log(`  ${kib(s.gzipBytes).padStart(9)}  ${s.src}  (${kib(s.rawBytes)} raw)`);
    console.log(`  ${kib(total).padStart(9)}  total`);
    const referenceJs = (await firstLoadJs(reference.url)).reduce((sum, s) => sum + s.gzipBytes, 0);
    console.log(`  ${kib(referenceJs).padStart(9)}  the reference page's, for comparison\n`);

    const ref: Page = { name: "reference (bare Next page)", url: reference.url, runs: [] };
    const pages: Page[] = [
      { name: "checkout", url: urls.checkout, runs: [] },
      { name: "payment link", url: urls.link, runs: [] },
      { name: "console sign-in", url: urls.login, runs: [] },
    ];
    // Warm every route once so the first Lighthouse run does not measure a cold server.
    for (const p of [ref, ...pages]) await fetch(p.url);
    for (let round = 1; round <= RUNS; round++) {
      for (const p of [ref, ...pages]) {
        const run = lighthouse(p.url);
        p.runs.push(run);
        console.log(
          `round ${round}/${RUNS} ${p.name}: performance ${run.performance}, accessibility ${run.accessibility}  (${Object.entries(
            run.metrics,
          )
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")})`,
        );
        for (const audit of run.failedAudits) console.log(`    failing accessibility audit: ${audit}`);
      }
    }
    const summary = (p: Page) => ({
      performance: median(p.runs.map((r) => r.performance)),
      lcpMs: median(p.runs.map((r) => r.lcpMs)),
      tbtMs: median(p.runs.map((r) => r.tbtMs)),
      ttiMs: median(p.runs.map((r) => r.ttiMs)),
      accessibility: Math.min(...p.runs.map((r) => r.accessibility)),
    });
    const base = summary(ref);
    console.log(
      `\nReference medians: performance ${base.performance}, LCP ${base.lcpMs} ms, TBT ${base.tbtMs} ms, TTI ${base.ttiMs} ms, accessibility ${base.accessibility}`,
    );
    const tbtLimit = Math.round(base.tbtMs * BUDGET.tbtTimesReference + BUDGET.tbtSlackMs);
    const rows: Array<[string, string, string, boolean]> = [
      [
        "checkout first-load JS (gzip)",
        kib(total),
        `≤ ${BUDGET.firstLoadKiB} kB`,
        total / 1024 <= BUDGET.firstLoadKiB,
      ],
    ];
    const results: Record<string, ReturnType<typeof summary>> = { reference: base };
    for (const p of pages) {
      const s = summary(p);
      results[p.name] = s;
      const diff = s.performance - base.performance;
      rows.push(
        [
          `${p.name}: performance (median)`,
          `${s.performance} (${diff >= 0 ? "+" : ""}${diff} vs reference ${base.performance})`,
          `≥ ${base.performance - BUDGET.performanceBelowReference}`,
          s.performance >= base.performance - BUDGET.performanceBelowReference,
        ],
        [`${p.name}: LCP (median)`, `${s.lcpMs} ms`, `≤ ${BUDGET.lcpMs} ms`, s.lcpMs <= BUDGET.lcpMs],
        [
          `${p.name}: TBT (median)`,
          `${s.tbtMs} ms (reference ${base.tbtMs} ms)`,
          `≤ ${tbtLimit} ms`,
          s.tbtMs <= tbtLimit,
        ],
        [
          `${p.name}: accessibility (lowest)`,
          String(s.accessibility),
          `= ${BUDGET.accessibility}`,
          s.accessibility >= BUDGET.accessibility,
        ],
      );
    }
    const header = ["measure", "value", "budget", "result"];
    const table = [header, ...rows.map(([m, v, b, ok]) => [m, v, b, ok ? "PASS" : "MISS"])];
    const widths = header.map((_, c) => Math.max(...table.map((r) => String(r[c]).length)));
    const line = (r: readonly string[]) =>
      `| ${r.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(" | ")} |`;
    console.log(`\n${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const r of table.slice(1)) console.log(line(r));
    console.log(
      `\nTime to interactive (Lighthouse's simulation, medians; not a budget): reference ${base.ttiMs} ms, ${pages
        .map((p) => `${p.name} ${results[p.name]?.ttiMs} ms`)
        .join(", ")}`,
    );

    mkdirSync(join(root, "bench/results"), { recursive: true });
    const out = join(root, `bench/results/page-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          distDir: DIST_DIR,
          scripts,
          totalGzipBytes: total,
          referenceGzipBytes: referenceJs,
          results,
          runs: Object.fromEntries([ref, ...pages].map((p) => [p.name, p.runs])),
          budget: BUDGET,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nWrote ${out.slice(root.length + 1)}`);
    process.exitCode = rows.every(([, , , ok]) => ok) ? 0 : 1;
  } finally {
    await reference.stop();
    await server.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
    rmSync(database.replace(/\.db$/, ".rate-limits.db"), { force: true });
  }
}

main().catch((err) => {
  console.error(`bench:page: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
