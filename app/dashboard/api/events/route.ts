// GET /dashboard/api/events?type=&reference=&delivered=&cursor= - the console mode's events with every
// delivery attempt, for the lists that refresh themselves (payment page, webhook delivery log).
import { consoleRouteQuery } from "@/lib/http/console-query";
import { methodsNotAllowed } from "@/lib/http/with-api";
import { withConsole } from "@/lib/http/with-console";
import { listEvents } from "@/lib/webhooks/list-events";
import { EventsQuery } from "@/lib/webhooks/schemas";

export const GET = withConsole({ session: true }, async ({ merchant, request }) => {
  const query = consoleRouteQuery(EventsQuery, request);
  return { data: await listEvents({ ...query, merchantId: merchant.merchantId, mode: merchant.mode }) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
