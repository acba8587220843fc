// POST /v1/merchants/authorizations/{code}/deactivate - stop a saved card for good (session token).
import { customersEndpoints } from "@/lib/customers/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(customersEndpoints.consoleDeactivate);
