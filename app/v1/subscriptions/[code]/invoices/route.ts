// GET /v1/subscriptions/{code}/invoices - the subscription's invoices, newest period first (secret key).
import { routes } from "@/lib/http/routes";
import { subscriptionsEndpoints } from "@/lib/subscriptions/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(subscriptionsEndpoints.listInvoices);
