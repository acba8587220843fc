import type { Selectable } from "kysely";
import { type CardConsentsTable, type CustomersTable, toMillis } from "@/lib/db/schema";
import { type AuthorizationRow, authorizationStatus } from "./authorization-status";

const iso = (value: number | string | bigint) => new Date(toMillis(value)).toISOString();

/** A saved card as merchants see it (docs/customers.md "Authorization"): never the rail's own token. */
export function presentAuthorization(row: AuthorizationRow) {
  return {
    authorizationCode: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    bank: row.bank,
    reusable: true,
    status: authorizationStatus(row),
    createdAt: iso(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}

export type PresentedAuthorization = ReturnType<typeof presentAuthorization>;

/** A customer (docs/customers.md "Customer"), with its saved cards newest first. */
export function presentCustomer(row: Selectable<CustomersTable>, authorizations: AuthorizationRow[]) {
  return {
    code: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {},
    createdAt: iso(row.created_at),
    authorizations: authorizations.map(presentAuthorization),
  };
}

/** A consent to keep a card, as it was given (the console shows it with the card). */
export function presentConsent(row: Selectable<CardConsentsTable>, reference: string | null) {
  return {
    kind: row.kind,
    text: row.text,
    locale: row.locale,
    clientAddress: row.client_address,
    givenAt: iso(row.given_at),
    reference,
  };
}
