import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppProc,
  cleanupHarness,
  type FreshDatabase,
  freshDatabase,
  initializePayment,
  merchantWithWebhook,
  payByCard,
  type Received,
  type Receiver,
  startApp,
  startReceiver,
} from "./helpers/webhook-harness";

/**
 * The signature-checking code of docs/guides/verify-webhooks.md, run as published against a real delivery:
 * each snippet must accept what our server sent and refuse the same delivery with one byte of the body
 * changed, or with another secret, and refuse to run at all with a secret anyone could sign under (unset,
 * empty, `whsec_`, `whsec_!!!!`, 3 bytes). Snippets in languages this machine does not run (PHP, Go) are not run.
 */
const ROOT = resolve(import.meta.dirname, "..");
const guide = readFileSync(join(ROOT, "docs/guides/verify-webhooks.md"), "utf8");

function snippet(language: "node" | "python"): string {
  const match = new RegExp(`<!-- snippet:${language} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(guide);
  if (!match?.[1]) throw new Error(`docs/guides/verify-webhooks.md has no snippet:${language} block`);
  return match[1];
}

/** Each runner reads {body, headers, secret} as JSON on stdin and prints "valid" or "invalid". */
const RUNNERS = {
  node: {
    file: "verify.mjs",
    source: () => `import { readFileSync as readInput } from "node:fs";
${snippet("node")}
const input = JSON.parse(readInput(0, "utf8"));
const verifyPaygateWebhook = paygateWebhookVerifier(input.secret);
console.log(verifyPaygateWebhook(input.body, input.headers) ? "valid" : "invalid");
`,
    command: (file: string) => [process.execPath, [file]] as const,
  },
  python: {
    file: "verify.py",
    source: () => `${snippet("python")}


if __name__ == "__main__":
    import json
    import sys

    data = json.load(sys.stdin)
    key = paygate_webhook_key(data["secret"])
    print("valid" if verify_paygate_webhook(data["body"].encode(), data["headers"], key) else "invalid")
`,
    command: (file: string) => ["python3", [file]] as const,
  },
};

let db: FreshDatabase;
let app: AppProc;
let receiver: Receiver;
let delivery: Received;
let secret: string;
// Inside the repository, so the Node snippet finds `standardwebhooks` in its node_modules as a merchant's
// app finds its own.
mkdirSync(join(ROOT, "test-results"), { recursive: true });
const dir = mkdtempSync(join(ROOT, "test-results", "snippets-"));

beforeAll(async () => {
  db = await freshDatabase("sqlite");
  app = await startApp({ name: "snippets", databaseUrl: db.url });
  receiver = await startReceiver();
  const merchant = await merchantWithWebhook(app.url, receiver.url);
  secret = merchant.secret;
  const payment = await initializePayment(merchant, { amount: "5000", email: "payer@example.com" });
  await payByCard(merchant, payment.accessCode);
  const [first] = await receiver.waitForCount(1, 20_000, (r) => r.json?.event === "payment.completed");
  if (!first) throw new Error("no payment.completed delivery");
  delivery = first;
});

afterAll(async () => {
  await cleanupHarness();
  rmSync(dir, { recursive: true, force: true });
});

function spawnRunner(
  language: keyof typeof RUNNERS,
  input: { body: string; headers: Record<string, string>; secret: string | null },
) {
  const runner = RUNNERS[language];
  const file = join(dir, runner.file);
  writeFileSync(file, runner.source());
  const [command, args] = runner.command(file);
  return spawnSync(command, [...args], { input: JSON.stringify(input), encoding: "utf8", cwd: ROOT });
}

function run(
  language: keyof typeof RUNNERS,
  input: { body: string; headers: Record<string, string>; secret: string },
) {
  const result = spawnRunner(language, input);
  if (result.status !== 0) throw new Error(`${language} snippet failed: ${result.stderr}`);
  return result.stdout.trim();
}

describe.each(["node", "python"] as const)("the %s snippet of the webhook guide", (language) => {
  const headers = () => ({
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  });

  it("accepts a real delivery", () => {
    expect(run(language, { body: delivery.text, headers: headers(), secret })).toBe("valid");
  });

  it("refuses it with the body changed, with another secret, or with an old timestamp", () => {
    const tampered = delivery.text.replace('"amount":"5000.00"', '"amount":"9000.00"');
    expect(tampered).not.toBe(delivery.text);
    expect(run(language, { body: tampered, headers: headers(), secret })).toBe("invalid");
    const other = `whsec_${Buffer.from("another secret of 32 bytes long!").toString("base64")}`;
    expect(run(language, { body: delivery.text, headers: headers(), secret: other })).toBe("invalid");
    const old = { ...headers(), "webhook-timestamp": String(Number(headers()["webhook-timestamp"]) - 3600) };
    expect(run(language, { body: delivery.text, headers: old, secret })).toBe("invalid");
  });

  it.each([
    ["unset", null],
    ["empty", ""],
    ["the bare prefix", "whsec_"],
    ["not base64", "whsec_!!!!"],
    ["3 bytes", "whsec_AAAA"],
  ])(
    "refuses to run with a secret that is %s, naming PAYGATE_WEBHOOK_SECRET, even for a delivery forged under it",
    (_, weak) => {
      // A forgery signed with the empty key, which is what such a secret decodes to (or close to it).
      const id = "evt_forgedforgedforgedforge";
      const at = String(Math.floor(Date.now() / 1000));
      const body = delivery.text.replace('"amount":"5000.00"', '"amount":"9000.00"');
      const mac = createHmac("sha256", Buffer.alloc(0)).update(`${id}.${at}.${body}`).digest("base64");
      const forged = { "webhook-id": id, "webhook-timestamp": at, "webhook-signature": `v1,${mac}` };
      const result = spawnRunner(language, { body, headers: forged, secret: weak });
      expect(result.stdout.trim()).not.toBe("valid");
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("PAYGATE_WEBHOOK_SECRET");
    },
  );
});
