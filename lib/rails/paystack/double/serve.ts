import { startPaystackDouble } from "./server";

/**
 * The Paystack double as a process of its own, for the browser tests (playwright.config.ts) and for trying the
 * connector by hand: `PORT=4000 npx tsx lib/rails/paystack/double/serve.ts`, then run the app with
 * PAYSTACK_BASE_URL=http://127.0.0.1:4000. Keys are registered through POST /__double/keys
 * {secretKey, webhookUrl}; the customer's side is played through the other /__double/ routes (docs/rails.md).
 * PAYSTACK_DOUBLE_CALLBACK_URL is where the bank's 3-D Secure page sends the customer back.
 */
const double = await startPaystackDouble({
  port: Number(process.env.PORT ?? 0),
  host: process.env.HOSTNAME ?? "127.0.0.1",
  callbackUrl: process.env.PAYSTACK_DOUBLE_CALLBACK_URL,
});
process.stdout.write(`Paystack double on ${double.url}\n`);
const stop = () => {
  const seen = double.violations();
  if (seen.length > 0)
    process.stderr.write(`The Paystack double saw what the document does not allow:\n${seen.join("\n")}\n`);
  void double.close().then(() => process.exit(seen.length > 0 ? 1 : 0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
