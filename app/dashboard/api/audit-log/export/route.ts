// GET /dashboard/api/audit-log/export?actor=&action= - the audit log, with the page's filters, as CSV.
import { stringify } from "csv-stringify/sync";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { AuditLogQuery } from "@/lib/audit/schemas";
import { sessionFromRequest } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { assertPermitted } from "@/lib/core/permit";
import { consoleRouteQuery } from "@/lib/http/console-query";
import { failureBody, jsonResponse } from "@/lib/http/envelope";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { newRequestId } from "@/lib/security/tokens";

/** Spreadsheet formula injection: a cell starting with = + - @ (or a tab or return) is quoted as text. */
function cell(value: string | null): string {
  const v = value ?? "";
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

export async function GET(request: Request) {
  const requestId = newRequestId();
  try {
    const merchant = await sessionFromRequest(request);
    assertPermitted(merchant.principal, "audit.read");
    const query = consoleRouteQuery(AuditLogQuery.omit({ cursor: true, limit: true }), request);
    const rows: string[][] = [["at", "mode", "action", "target", "actor_type", "actor", "address"]];
    let cursor: string | undefined;
    do {
      const page = await listAuditLog({ merchantId: merchant.merchantId, ...query, limit: 100, cursor });
      for (const e of page.entries)
        rows.push([
          e.at,
          e.mode,
          e.action,
          cell(e.target),
          e.actor.type,
          cell(e.actor.type === "member" ? e.actor.email : e.actor.last4),
          cell(e.address),
        ]);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && rows.length < 100_001);
    return new Response(stringify(rows), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-request-id": requestId,
      },
    });
  } catch (err) {
    if (isAppError(err))
      return jsonResponse(err.status, failureBody(err.code, err.message), { "x-request-id": requestId });
    throw err;
  }
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
