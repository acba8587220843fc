// POST /dashboard/api/refunds {reference, amount?, reason?} - refund all or part of a paid payment in the console's
// mode; GET ?reference=&status=&cursor= - the mode's refunds, newest first.
import { consoleRoutes } from "@/lib/http/routes";
import { refundsEndpoints } from "@/lib/refunds/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(
  refundsEndpoints.consoleList,
  refundsEndpoints.consoleCreate,
);
