import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type AppProc,
  cleanupHarness,
  freshDatabase,
  type HookMerchant,
  merchantWithWebhook,
  startApp,
} from "./helpers/webhook-harness";

/**
 * The SDK as a merchant gets it: `npm pack` of sdk/node (as built), installed from the tarball alone into an
 * empty project (offline: no registry), and its README's example run there as published, against the real
 * built service: initialize, pay in the sandbox, verify, refund, and verify the payment.completed webhook the
 * service posts to the example's own endpoint; then its saved-card example (cards saved on the checkout, charged
 * with the customer away: a success, a decline, an OTP the customer answers). And what it weighs: within its packed-size budget, with nothing
 * in it but what a merchant's install needs.
 */
const ROOT = resolve(import.meta.dirname, "..");
const SDK = join(ROOT, "sdk/node");
const dir = mkdtempSync(join(tmpdir(), "paygate-sdk-pack-"));
let app: AppProc;
let merchant: HookMerchant;
let port: number;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false", ...env },
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: p } = server.address() as { port: number };
      server.close(() => resolvePort(p));
    });
  });
}

beforeAll(async () => {
  const db = await freshDatabase("sqlite");
  app = await startApp({ name: "sdk-pack", databaseUrl: db.url });
  port = await freePort();
  // The example's own webhook endpoint is this merchant's endpoint.
  merchant = await merchantWithWebhook(app.url, `http://127.0.0.1:${port}/webhooks/paygate`);
});

afterAll(async () => {
  await cleanupHarness();
  rmSync(dir, { recursive: true, force: true });
});

/** What the package may weigh as packed (the tarball npm publishes), in bytes (docs/decisions/015-server-sdk.md). */
const PACKED_BUDGET = 80 * 1024;

type Packed = { filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };
let packedOnce: Packed | undefined;

/** `npm pack` of the package as built (npm run sdk:build; prepack would build it again), once per run. */
function pack(): Packed {
  packedOnce ??= (
    JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], SDK)) as Packed[]
  )[0];
  if (!packedOnce) throw new Error("npm pack answered no package");
  return packedOnce;
}

it("the packed SDK is within its size budget and holds only the compiled code, its types and the README", () => {
  const packed = pack();
  const files = packed.files.map((f) => f.path);
  console.log(
    `@paygate/node tarball: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${files.length} files`,
  );
  expect(packed.size).toBeLessThanOrEqual(PACKED_BUDGET);
  expect(files).toEqual(
    expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "package.json", "README.md"]),
  );
  // No source maps, tests, TypeScript sources, generator inputs (openapi.json, scripts/, tsconfig) or lockfile:
  // what the package needs is its compiled modules, their declarations, package.json and the README.
  const needed = (f: string) =>
    f === "package.json" || f === "README.md" || /^dist\/(?:[\w.-]+\/)*[\w.-]+\.(?:js|d\.ts)$/.test(f);
  expect(files.filter((f) => !needed(f) || /\.map$|\.test\.|(^|\/)tests?\//.test(f))).toEqual([]);
});

it("npm pack of the SDK installs into an empty project, offline, and runs its README example", () => {
  const tarball = join(dir, pack().filename);

  const project = join(dir, "shop");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "shop", private: true, type: "module" }),
  );
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], project);
  // Nothing but the SDK: it has no dependency.
  expect(readdirSync(join(project, "node_modules")).filter((f) => !f.startsWith("."))).toEqual(["@paygate"]);
  expect(readdirSync(join(project, "node_modules/@paygate"))).toEqual(["node"]);

  const readme = readFileSync(join(SDK, "README.md"), "utf8");
  const example = /<!-- example -->\n```js\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (!example) throw new Error("sdk/node/README.md has no <!-- example --> block");
  writeFileSync(join(project, "example.mjs"), example);
  const out = run(process.execPath, ["example.mjs"], project, {
    PAYGATE_SECRET_KEY: merchant.testKey,
    PAYGATE_BASE_URL: `${app.url}/v1`,
    PAYGATE_WEBHOOK_SECRET: merchant.secret,
    PORT: String(port),
  });
  expect(out).toMatch(/^send the customer to http/m);
  expect(out).toMatch(/^verified: PAY_TXN_\w+ success 5000\.00 NGN$/m);
  expect(out).toMatch(/^refund rfd_\S+: 1000\.00 pending$/m);
  expect(out).toMatch(/^webhook: PAY_TXN_\w+ paid, 5000\.00 settled$/m);

  // The saved-card example: cards saved on the checkout, charged with the customer away (a success, a
  // decline), and a charge the bank asks an OTP for, finished by the customer.
  const saved = /<!-- example: saved cards -->\n```js\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (!saved) throw new Error("sdk/node/README.md has no <!-- example: saved cards --> block");
  writeFileSync(join(project, "saved-cards.mjs"), saved);
  const cards = run(process.execPath, ["saved-cards.mjs"], project, {
    PAYGATE_SECRET_KEY: merchant.testKey,
    PAYGATE_BASE_URL: `${app.url}/v1`,
  });
  expect(cards).toMatch(/^charged: PAY_TXN_\w+ success 2637\.50$/m);
  expect(cards).toMatch(/^declined: PAY_TXN_\w+ failed card_declined$/m);
  expect(cards).toMatch(/^requires_action: send the customer to http\S+\/pay\/\w+$/m);
  expect(cards).toMatch(/^finished: PAY_TXN_\w+ success$/m);
  expect(cards).toMatch(/^customer CUS_\w{20}: 3 saved cards$/m);
  // The same example with PAYGATE_WEBHOOK_SECRET unset, or empty: it stops at once, naming the variable,
  // before it creates anything or listens for a single (forgeable) webhook.
  for (const secret of [undefined, "", "whsec_"]) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PAYGATE_SECRET_KEY: merchant.testKey,
      PAYGATE_BASE_URL: `${app.url}/v1`,
      PAYGATE_WEBHOOK_SECRET: secret,
      PORT: String(port),
    };
    if (secret === undefined) delete env.PAYGATE_WEBHOOK_SECRET;
    const refused = spawnSync(process.execPath, ["example.mjs"], {
      cwd: project,
      encoding: "utf8",
      env,
      timeout: 30_000,
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(
      /WebhookSecretError: PAYGATE_WEBHOOK_SECRET (is not set|is empty|holds the whsec_ prefix)/,
    );
    expect(refused.stdout).not.toMatch(/send the customer to/);
  }
});
