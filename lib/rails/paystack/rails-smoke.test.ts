import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaystackDouble, startPaystackDouble } from "./double/server";

/**
 * `npm run rails:smoke` (scripts/rails-smoke.ts) against the double, so the script cannot rot: it runs as an
 * operator runs it (tsx, PAYSTACK_BASE_URL, a test key), waiting for the transfer, the bank payment and the
 * USSD payment, which this test pays through the double as a customer would. Every step it prints must pass,
 * and every request it sent must be one the vendored document allows.
 */
const KEY = "sk_test_5m0ke0123456789abcdef0123456789abcdef01";
const ROOT = resolve(import.meta.dirname, "../../..");
let double: PaystackDouble;

beforeAll(async () => {
  double = await startPaystackDouble();
  double.addKey(KEY);
  // Nothing listens for the double's events here: the script reads the charges' state from Paystack.
  double.muteWebhooks(true);
});
afterAll(() => double.close());

describe("rails:smoke", () => {
  it("passes every step against the double, the transfer, bank payment and USSD paid while it waits", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/rails-smoke.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PAYSTACK_BASE_URL: double.url,
        PAYSTACK_SECRET_KEY_TEST: KEY,
        PAYSTACK_SMOKE_WAIT_SECONDS: "60",
        PAYSTACK_TIMEOUT_MS: "5000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    // The customer: pays each account or code the script is given, once.
    const paid = new Set<string>();
    let running = true;
    const customer = (async () => {
      while (running) {
        for (const c of double.charges()) {
          if (paid.has(c.reference)) continue;
          if (c.status === "pending_bank_transfer") {
            paid.add(c.reference);
            await double.transfer(c.reference, c.amount);
          } else if (c.status === "pay_offline") {
            paid.add(c.reference);
            await double.complete(c.reference, "success");
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const code = await exited;
    running = false;
    await customer;

    expect(output).not.toContain("✗");
    expect(code, output).toBe(0);
    for (const line of [
      "Paystack takes the key",
      "card charged NGN 100.00",
      "GET /charge/{reference} and /transaction/verify agree: success, 10000 kobo",
      "the transfer: paid",
      "the bank payment: paid",
      "the USSD payment: paid",
      "the same refund (merchant_note), not a second",
      "rails:smoke passed",
    ])
      expect(output, line).toContain(line);
    // Every step it announced (•) was followed by its result, none left waiting or unpaid.
    expect(output).not.toMatch(/not waited for|not paid within/);
    expect(output.match(/ • /g)).toHaveLength(6);
    expect(paid.size).toBe(3);
    expect(double.refunds()).toHaveLength(1);
    double.assertClean();
  }, 120_000);
});
