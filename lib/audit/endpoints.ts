import { defineEndpoint } from "@/lib/core/endpoint";
import { listAuditLog } from "./list-audit-log";
import { AuditLogQuery, AuditLogResponse } from "./schemas";

/** The audit log (session token; owners and admins: docs/api.md "Audit log"). */
export const auditEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/v1/merchants/audit-log",
    tag: "Team",
    summary: "Who changed what, newest first",
    description:
      "Every change made with a session or a secret key, in both modes (each entry names its own), filtered by actor (an email or a key's last four characters) and action (`refund.create`, or `team` for every team action).",
    auth: "session",
    permission: "audit.read",
    query: AuditLogQuery,
    status: 200,
    response: AuditLogResponse,
    handler: ({ auth, query }) => listAuditLog({ merchantId: auth.merchantId, ...query }),
  }),
};
