import { PAYSTACK_WEBHOOK_IPS } from "./shapes";

/**
 * Whether a webhook from `address` is accepted under PAYSTACK_WEBHOOK_ALLOWED_IPS (`setting`): any address
 * when unset (the signature is what proves an event is Paystack's), Paystack's published addresses for
 * `paystack` (shapes.ts PAYSTACK_WEBHOOK_IPS), or exactly the listed ones. An IPv4 address written as IPv6
 * (`::ffff:52.31.139.75`) is the IPv4 address.
 */
export function webhookAddressAllowed(address: string, setting: string | undefined): boolean {
  if (!setting) return true;
  const list = setting === "paystack" ? [...PAYSTACK_WEBHOOK_IPS] : setting.split(",").map((a) => a.trim());
  return list.includes(address.replace(/^::ffff:/i, ""));
}
