import type { Permission } from "@/lib/core/roles";

/** The console's pages, each with the permission its role must hold to be linked (lib/core/roles.ts). */
export const CONSOLE_PAGES = [
  { href: "/dashboard", name: "Overview", permission: "payments.read" },
  { href: "/dashboard/payments", name: "Payments", permission: "payments.read" },
  { href: "/dashboard/customers", name: "Customers", permission: "customers.read" },
  { href: "/dashboard/refunds", name: "Refunds", permission: "payments.read" },
  { href: "/dashboard/links", name: "Payment links", permission: "payments.read" },
  { href: "/dashboard/webhooks", name: "Webhooks", permission: "developers.read" },
  { href: "/dashboard/keys", name: "API keys", permission: "developers.read" },
  { href: "/dashboard/settings", name: "Settings", permission: "settings.read" },
  { href: "/dashboard/team", name: "Team", permission: "team.read" },
  { href: "/dashboard/audit-log", name: "Audit log", permission: "audit.read" },
  { href: "/dashboard/account", name: "Your account", permission: "account.self" },
] as const satisfies readonly { href: string; name: string; permission: Permission }[];
