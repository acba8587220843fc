// GET /v1/metrics - this instance's metrics in Prometheus' text format, for the operator's scraper.
import { clientAddressOf } from "@/lib/http/client-address";
import { routes, serve } from "@/lib/http/routes";
import { respond } from "@/lib/http/with-api";
import { opsEndpoints } from "@/lib/ops/endpoints";
import { scrapeMetrics } from "@/lib/ops/scrape-metrics";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(
  serve(opsEndpoints.metrics, (request) =>
    respond(request, { door: "api" }, async (requestId) => {
      const { text, contentType } = await scrapeMetrics({
        authorization: request.headers.get("authorization"),
        clientAddress: clientAddressOf(request.headers),
      });
      return {
        response: new Response(text, {
          headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": requestId },
        }),
      };
    }),
  ),
);
