import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The servers the browser tests run against (playwright.config.ts starts both): the main one, with a real
 * 30-minute virtual-account window, and one whose window is a few seconds, for the expiry flow only. Every
 * other transfer test keeps a window that a slow, busy machine cannot run out of mid-test.
 */
const port = Number(process.env.E2E_PORT ?? 3100);

export const MAIN_BASE_URL = `http://127.0.0.1:${port}`;
export const SHORT_WINDOW_BASE_URL = `http://127.0.0.1:${port + 1}`;
/**
 * A production deployment (live keys only) whose Paystack is the double (lib/rails/paystack/double/), for the
 * live-mode flows, and the double itself.
 */
export const LIVE_BASE_URL = `http://127.0.0.1:${port + 2}`;
export const PAYSTACK_DOUBLE_URL = `http://127.0.0.1:${port + 3}`;
/** BANK_TRANSFER_WINDOW_SECONDS of the short-window server. */
export const SHORT_WINDOW_SECONDS = 10;

/**
 * The demo merchant's credentials file of the server `name` in this run ({email, password, testSecretKey}),
 * written at its boot (playwright.config.ts sets DEMO_MERCHANT_FILE to it).
 */
export function demoMerchantFile(name: string): string {
  return join(tmpdir(), `${process.env.PAYGATE_E2E_RUN_ID}-${name}-demo-merchant.json`);
}
