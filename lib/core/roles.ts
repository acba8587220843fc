/**
 * Roles and what each may do (docs/console.md "Team"): the one table every session endpoint's permission is
 * checked against (lib/http/with-api.ts) and the console hides its pages and buttons by. Types and data only.
 *
 * - owner: everything;
 * - admin: everything but making, unmaking or removing owners;
 * - developer: API keys, webhooks, payment links, payments and events; no refunds, customers, settings or team;
 * - support: payments, customers and refunds; no keys, webhooks, settings or team;
 * - viewer: reads what support and developers read, changes nothing.
 */
export const ROLES = ["owner", "admin", "developer", "support", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** Anything a signed-in member does to their own account: sign out, switch merchant, their two-factor sign-in. */
  "account.self": "their own account",
  "payments.read": "payments, refunds and payment links (read)",
  "customers.read": "customers and their saved cards (read)",
  "customers.write": "customers and their saved cards (change)",
  "refunds.write": "refunds (issue)",
  "links.write": "payment links (create, change)",
  "developers.read": "API keys, the webhook endpoint and events (read)",
  "keys.write": "API keys (roll)",
  "webhooks.write": "the webhook endpoint, its secret and redeliveries (change)",
  "settings.read": "settings and the payment processor connection (read)",
  "settings.write":
    "settings, the payment processor connection, two-factor sign-in for every member (change)",
  "team.read": "the team and its invitations (read)",
  "team.write": "inviting, changing and removing members other than owners",
  "team.owners": "making, unmaking and removing owners",
  "audit.read": "the audit log (read)",
} as const;
export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.keys(PERMISSIONS) as Permission[];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ALL,
  admin: ALL.filter((p) => p !== "team.owners"),
  developer: [
    "account.self",
    "payments.read",
    "links.write",
    "developers.read",
    "keys.write",
    "webhooks.write",
    "settings.read",
  ],
  support: [
    "account.self",
    "payments.read",
    "customers.read",
    "customers.write",
    "refunds.write",
    "settings.read",
  ],
  viewer: ["account.self", "payments.read", "customers.read", "developers.read", "settings.read"],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether `role` holds `permission`. An unknown role holds nothing. */
export function can(role: string, permission: Permission): boolean {
  return isRole(role) && ROLE_PERMISSIONS[role].includes(permission);
}
