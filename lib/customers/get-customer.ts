import type { Mode } from "@/lib/db/schema";
import { authorizationsOf } from "./authorizations-of";
import { findCustomer } from "./find-customer";
import { presentCustomer } from "./present";

/** GET /customers/{code}: the customer with its saved cards. */
export async function getCustomer(input: { merchantId: string; mode: Mode; code: string }) {
  const row = await findCustomer(input);
  const cards = await authorizationsOf([row.id]);
  return presentCustomer(row, cards.get(row.id) ?? []);
}
